"""The project's call graph (jitlint/callgraph.py): a function's callers in other modules
decide how it runs, and findings that rest on callers nobody sees go to the opt-in group
``unknown-callers``.  The cross-module fixtures (fixtures/repetition/callers) run for real:
their compile counts are what the marks claim."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from jitlint.callgraph import ONCE, REPEATED, TRACED, ProjectCalls
from jitlint.config import ConfigError, Settings, with_overrides
from jitlint.engine import lint_files
from jitlint.project import scan_module
from jitlint.rule import UNKNOWN_CALLERS

from helpers import FIXTURES, ROOT, declared_compiles, run_all_counting_compiles, user_function_compiles

CALLERS = FIXTURES / "repetition" / "callers"
HELPERS = CALLERS / "xmod_steps.py"


def _calls(path: Path, module: str):
    return scan_module(ast.parse(path.read_text()), module, False, str(path)).calls


def test_the_graph_reads_each_callers_context():
    graph = ProjectCalls([_calls(p, p.stem) for p in sorted(CALLERS.glob("*.py"))])
    assert graph.verdict("xmod_steps.evaluate_once")[0] == ONCE
    how, evidence = graph.verdict("xmod_steps.evaluate_per_step")
    assert how == REPEATED and evidence == f"called on every iteration at {CALLERS.relative_to(Path.cwd()) if CALLERS.is_relative_to(Path.cwd()) else CALLERS}/run_per_step.py:10"
    assert graph.verdict("xmod_steps.smooth")[0] == TRACED
    assert graph.verdict("xmod_steps.export") is None  # no caller: unknown


def test_a_loop_inside_a_function_of_a_caller_and_its_iterable():
    source = (
        "from lib import f, g, h\n"
        "for x in f():\n"  # the iterable runs once
        "    g(x)\n"
        "def run():\n"
        "    while True:\n"
        "        h()\n"
    )
    calls = scan_module(ast.parse(source), "app", False, "app.py").calls
    records = {(r.callee, r.caller, r.loop) for r in calls.calls}
    assert ("lib.f", "", False) in records and ("lib.g", "", True) in records
    assert ("lib.h", "run", True) in records


def test_findings_resting_on_unknown_callers_are_opt_in():
    default = lint_files([str(HELPERS)], Settings(root=ROOT), jobs=1)
    grouped = lint_files([str(HELPERS)], Settings(root=ROOT, extend_select=(UNKNOWN_CALLERS,)), jobs=1)
    assert {(d.line, d.group) for d in default[0].diagnostics} == {(15, None)}
    assert {(d.line, d.group) for d in grouped[0].diagnostics} == {(15, None), (32, UNKNOWN_CALLERS)}
    [export] = [d for d in grouped[0].diagnostics if d.line == 32]
    assert "nothing in the project calls `export`" in export.message
    assert export.to_dict()["group"] == UNKNOWN_CALLERS
    assert "group" not in default[0].diagnostics[0].to_dict()


def test_the_group_is_selected_by_name_and_ignored_by_name():
    settings = with_overrides(Settings(root=ROOT), extend_select=["unknown-callers"])
    assert settings.group_enabled(UNKNOWN_CALLERS) and settings.is_enabled("JIT101")
    only = with_overrides(Settings(root=ROOT), select=["unknown-callers"])
    assert only.group_enabled(UNKNOWN_CALLERS) and only.is_enabled("JIT101")
    ignored = with_overrides(settings, ignore=["unknown-callers"])
    assert not ignored.group_enabled(UNKNOWN_CALLERS)
    assert not Settings(root=ROOT).group_enabled(UNKNOWN_CALLERS)
    with pytest.raises(ConfigError):
        with_overrides(Settings(root=ROOT), extend_select=["unknown-caller"])


def _cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jitlint", *args], cwd=cwd, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_cli_and_config_select_the_group(tmp_path: Path):
    target = str(HELPERS)
    plain = json.loads(_cli("check", "--no-cache", "--exit-zero", "--output-format", "json", target).stdout)
    assert [f["line"] for f in plain] == [15]
    grouped = json.loads(_cli("check", "--no-cache", "--exit-zero", "--output-format", "json",
                              "--extend-select", "Unknown-Callers", target).stdout)
    assert [(f["line"], f.get("group")) for f in grouped] == [(15, None), (32, UNKNOWN_CALLERS)]
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.jitlint]\nextend-select = ["unknown-callers"]\n')
    configured = json.loads(_cli("check", "--no-cache", "--exit-zero", "--output-format", "json",
                                 "--config", str(config), target).stdout)
    assert [f["line"] for f in configured] == [15, 32]
    sarif = json.loads(_cli("check", "--no-cache", "--exit-zero", "--output-format", "sarif",
                            "--extend-select", "unknown-callers", target).stdout)
    groups = [r.get("properties", {}).get("group") for r in sarif["runs"][0]["results"]]
    assert groups == [None, UNKNOWN_CALLERS]


def test_rules_and_rule_docs_list_the_group():
    listing = _cli("rules").stdout
    assert "unknown-callers" in listing
    assert "unknown-callers" in _cli("rule", "JIT520").stdout
    assert "unknown-callers" not in _cli("rule", "JIT702").stdout


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    return run_all_counting_compiles(sorted(CALLERS.glob("run_*.py")))


@pytest.mark.parametrize("name", ["run_once.py", "run_per_step.py", "run_traced.py"])
def test_cross_module_fixtures_compile_as_declared(name: str, reports):
    script = CALLERS / name
    report = reports[script]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = user_function_compiles(report, script, also=[HELPERS])
    declared = declared_compiles(script)
    for function, count in compiles.items():
        assert count == declared.get(function, 1), (function, dict(compiles))
    if name == "run_per_step.py":
        assert compiles["<lambda>"] == 5  # the fresh jit reported in xmod_steps.py, once per step
    if name == "run_traced.py":  # the helper's lax.cond bodies are traced with step, no eager compile
        assert compiles["step"] == 1 and not any(e["fun_name"].startswith("jit(cond") for e in report["compiles"])


def _copy_project(tmp_path: Path, config: str) -> Path:
    for source in CALLERS.glob("*.py"):
        (tmp_path / source.name).write_text(source.read_text())
    (tmp_path / "pyproject.toml").write_text(f"[tool.jitlint]\n{config}")
    return tmp_path / HELPERS.name


@pytest.mark.parametrize("config, lines", [("", [15]), ('extend-select = ["unknown-callers"]\n', [15, 32])])
def test_flake8_and_stdin_see_the_callers_and_the_group(tmp_path: Path, config: str, lines: list[int]):
    """A file linted alone (flake8, stdin) is checked against its project's callers too."""
    target = _copy_project(tmp_path, config)
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--select", "JIT", "--no-show-source",
                             target.name], cwd=tmp_path, capture_output=True, text=True,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    found = [int(line.split(":")[1]) for line in flake8.stdout.splitlines()]
    assert found == lines, flake8.stdout + flake8.stderr
    stdin = subprocess.run([sys.executable, "-m", "jitlint", "check", "--no-cache", "--exit-zero",
                            "--output-format", "json", "--stdin-filename", target.name, "-"],
                           cwd=tmp_path, input=target.read_text(), capture_output=True, text=True,
                           env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert [f["line"] for f in json.loads(stdin.stdout)] == lines, stdin.stderr


def _notebook(*cells: str) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                                  "execution_count": None, "source": cell} for cell in cells],
                       "metadata": {"language_info": {"name": "python"}}, "nbformat": 4,
                       "nbformat_minor": 5})


def test_a_notebook_cell_is_a_caller(tmp_path: Path):
    """A notebook's cells call the project's helpers as a module does: a loop in a cell repeats."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "helpers.py").write_text(
        "import jax\n\n\ndef evaluate(x):\n    return jax.jit(lambda v: v * 2.0)(x)\n")
    (tmp_path / "explore.ipynb").write_text(_notebook(
        "import jax.numpy as jnp\nfrom helpers import evaluate", "for i in range(5):\n    evaluate(jnp.ones(3) * i)"))
    files = [str(tmp_path / "helpers.py"), str(tmp_path / "explore.ipynb")]
    [helpers, _] = lint_files(files, Settings(root=tmp_path), jobs=1)
    [finding] = helpers.diagnostics
    assert finding.group is None and "called on every iteration at" in finding.message
    assert "explore.ipynb:cell 2:line 2" in finding.message
    (tmp_path / "explore.ipynb").write_text(_notebook(
        "import jax.numpy as jnp\nfrom helpers import evaluate", "evaluate(jnp.ones(3))"))
    assert lint_files(files, Settings(root=tmp_path), jobs=1)[0].diagnostics == []
