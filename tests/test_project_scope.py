"""Issue 17 item 3: the same findings whether a file is named or found in a directory.  The
project index comes from the file's project (the pyproject.toml's directory, or the directory
above the top package) and is cached; through the real CLI, the real flake8 and stdin."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

STEPS = textwrap.dedent("""\
    from functools import partial

    import jax


    @partial(jax.jit, static_argnums=1)
    def step(x, cfg):
        return x
""")
USE = textwrap.dedent("""\
    from pkg.steps import step


    def train(x):
        return step(x, [1, 2])
""")
FINDING = ":5:20: JIT301 static argument `cfg` (position 1) of `step` is a list"


@pytest.fixture
def project(tmp_path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    pkg = tmp_path / "src" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "steps.py").write_text(STEPS)
    (pkg / "use.py").write_text(USE)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "run.py").write_text(USE)  # outside the package, same project
    return tmp_path


def cli(project: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jitlint", "check", *args], cwd=project,
                          input=stdin, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("cache", [["--no-cache"], []])
def test_named_file_gets_the_findings_it_gets_in_the_tree(project, cache):
    tree = cli(project, *cache, ".")
    assert f"src/pkg/use.py{FINDING}" in tree.stdout and f"scripts/run.py{FINDING}" in tree.stdout
    for named in ("src/pkg/use.py", "scripts/run.py"):
        alone = cli(project, *cache, named)
        assert alone.returncode == 1 and f"{named}{FINDING}" in alone.stdout, alone.stderr
    inside = subprocess.run([sys.executable, "-m", "jitlint", "check", "use.py"],
                            cwd=project / "src" / "pkg", capture_output=True, text=True)
    assert f"use.py{FINDING}" in inside.stdout


def test_stdin_gets_the_project_findings(project):
    proc = cli(project, "--no-cache", "-", "--stdin-filename", "src/pkg/use.py", stdin=USE)
    assert proc.returncode == 1 and f"src/pkg/use.py{FINDING}" in proc.stdout


def test_a_changed_dependency_is_seen_through_the_cache(project):
    assert cli(project, "src/pkg/use.py").returncode == 1
    (project / "src" / "pkg" / "steps.py").write_text(STEPS.replace(", static_argnums=1", ""))
    again = cli(project, "src/pkg/use.py")
    assert again.returncode == 0, again.stdout  # no static argument any more


def test_summaries_of_imported_modules_are_cached(project, run_cli, monkeypatch):
    import jitlint.project

    calls = []
    real = jitlint.project.summarize_path
    monkeypatch.setattr(jitlint.project, "summarize_path",
                        lambda path, classes=False: calls.append(path) or real(path, classes))
    monkeypatch.chdir(project)
    assert run_cli("src/pkg/use.py")[0] == 1
    assert [Path(p).name for p in calls] == ["steps.py"]
    calls.clear()
    assert run_cli("scripts/run.py")[0] == 1
    assert calls == []  # from the cache


def test_flake8_on_one_file_reports_the_cross_module_finding(project):
    proc = subprocess.run([sys.executable, "-m", "flake8", "--select", "JIT", "src/pkg/use.py"],
                          cwd=project, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "src/pkg/use.py:5:20: JIT301 static argument `cfg`" in proc.stdout
    assert (project / ".jitlint_cache").is_dir()


WRAPPER = textwrap.dedent("""\
    import jax


    def compiled(fn, **options):
        return jax.jit(fn, **options)
""")
# Never says jit: the prefilter learns the wrapper's name from the project index.
WRAPPER_USE = textwrap.dedent("""\
    from pkg import helpers


    def step(x):
        return helpers.compiled(lambda v: v + 1.0)(x)


    for i in range(3):
        step(float(i))
""")
WRAPPER_FINDING = ":5:12: JIT101 `helpers.compiled` (jax.jit) of a lambda in `step` compiles on every call of `step`"


def test_a_jit_wrapper_of_another_module_is_found_alone_in_the_tree_by_flake8_and_stdin(project):
    (project / "src" / "pkg" / "helpers.py").write_text(WRAPPER)
    (project / "scripts" / "loop.py").write_text(WRAPPER_USE)
    expected = f"scripts/loop.py{WRAPPER_FINDING}"
    for args in (["."], ["scripts/loop.py"], ["--no-cache", "scripts/loop.py"],
                 ["--no-cache", "-", "--stdin-filename", "scripts/loop.py"]):
        proc = cli(project, *args, stdin=WRAPPER_USE)
        assert expected in proc.stdout, (args, proc.stdout, proc.stderr)
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--select", "JIT", "scripts/loop.py"],
                            cwd=project, capture_output=True, text=True, timeout=300)
    assert expected in flake8.stdout, flake8.stderr
    # A wrapper that memoises is no fresh jit per call: the cached finding goes.
    (project / "src" / "pkg" / "helpers.py").write_text(
        WRAPPER.replace("import jax", "import functools\nimport jax")
        .replace("def compiled", "@functools.cache\ndef compiled"))
    assert cli(project, "scripts/loop.py").returncode == 0


def test_a_huge_directory_without_a_project_is_not_walked(tmp_path, run_cli, monkeypatch):
    """A script in a directory with no pyproject.toml and no package: its directory is the
    project, but a tree of thousands of files is no project (a home directory)."""
    import jitlint.project

    monkeypatch.setattr(jitlint.project, "MAX_PROJECT_FILES", 3)
    for i in range(5):
        (tmp_path / f"m{i}.py").write_text("x = 1\n")
    (tmp_path / "steps.py").write_text(STEPS)
    (tmp_path / "use.py").write_text(USE.replace("pkg.steps", "steps"))
    code, out, err = run_cli("--no-cache", str(tmp_path / "use.py"))
    assert code == 0 and "Traceback" not in err


@pytest.mark.parametrize("family, pattern", [("fixtures/static", "*.py"),
                                             ("fixtures/repetition", "crossmod_*.py")])
def test_every_crossmod_fixture_named_alone_gets_its_findings_in_the_tree(run_cli, monkeypatch,
                                                                         family, pattern):
    """The cross-module fixtures (fixtures/static/crossmod*: imports, module aliases, re-exports
    through a package __init__, classes across modules; fixtures/repetition/crossmod_*: jit
    wrappers of another module): each file named alone, as pre-commit names a changed file,
    reports exactly what `jitlint check <family>` reports for it."""
    from helpers import ROOT

    monkeypatch.chdir(ROOT)
    code, out, _ = run_cli("--no-cache", "--output-format", "json", family)
    tree = json.loads(out)
    assert any("crossmod" in d["path"] for d in tree)
    for path in sorted(Path(family).rglob(pattern)):
        code, out, _ = run_cli("--no-cache", "--output-format", "json", str(path))
        alone = json.loads(out)
        assert alone == [d for d in tree if d["path"] == str(path)], path


def test_a_notebook_named_alone_is_checked_against_its_project(project):
    import json as _json

    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": ["from pkg.steps import step\n", "step(1.0, [1, 2])"]}
    (project / "src" / "analysis.ipynb").write_text(_json.dumps(
        {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [cell]}))
    for args in (["src/analysis.ipynb"], ["."]):
        proc = cli(project, "--no-cache", *args)
        assert "src/analysis.ipynb:cell 1:line 2:11: JIT301" in proc.stdout, (args, proc.stdout)
