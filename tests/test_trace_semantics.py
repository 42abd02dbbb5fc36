"""Issue 15: trace-time semantics (JIT6xx / JIT8xx), proven with real JAX on the CPU.

Fixtures under ``fixtures/trace_state/`` and ``fixtures/trace_misuse/`` declare what they do at
run time in their header, and each claim is measured here:

* ``# runtime: raises NAME``: the script raises that exception type (bootstrap outcome);
* ``# runtime: prints TEXT``: its last line of output under jit; with
  ``# runtime without jit: prints OTHER`` the same script with ``JAX_DISABLE_JIT=1`` prints the
  other line (every call runs the Python body): the jitted result is stale;
* ``# runtime: NAME compiles N times``: compiles of jitted ``NAME``;
* ``# runtime: counter equals compiles of NAME``: the printed counter is NAME's compile count,
  i.e. a trace counter counts exactly what it means to count (so it must stay silent).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from helpers import (FIXTURES, ForkedRun, actual_findings, declared_compiles, expected_findings, missing_requirement,
                     run_all_counting_compiles, run_all_without_jit, run_forked,
                     user_function_compiles)
from jitlint.config import Settings
from jitlint.engine import lint_source

FAMILIES = ("trace_state", "trace_misuse")
SCRIPTS = sorted(p for family in FAMILIES for p in (FIXTURES / family).glob("*.py"))
RAISES = re.compile(r"^# runtime: raises (?P<name>\w+)$", re.M)
PRINTS = re.compile(r"^# runtime: prints (?P<text>.+)$", re.M)
EAGER = re.compile(r"^# runtime without jit: prints (?P<text>.+)$", re.M)
COUNTER = re.compile(r"^# runtime: counter equals compiles of (?P<name>\w+)$", re.M)


def _last_line(stdout: str) -> str:
    lines = stdout.strip().splitlines()
    return lines[-1].strip() if lines else ""


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    return run_all_counting_compiles(SCRIPTS)


@pytest.fixture(scope="module")
def eager_outputs() -> dict[Path, str]:
    pytest.importorskip("jax")
    return run_all_without_jit(p for p in SCRIPTS if EAGER.search(p.read_text()))


def test_every_fixture_declares_its_runtime_behaviour():
    assert len(SCRIPTS) >= 10
    for path in SCRIPTS:
        text = path.read_text()
        assert RAISES.search(text) or PRINTS.search(text) or declared_compiles(path), path.name


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_behaves_as_declared(path: Path, reports, eager_outputs):
    missing = missing_requirement(path)
    if missing is not None:
        pytest.skip(f"{missing} is not installed")
    report, text = reports[path], path.read_text()
    outcome = report["outcome"]
    raised = RAISES.search(text)
    if raised:
        assert outcome["status"] == "raised", report["stdout"][-2000:]
        assert outcome["type"] == raised["name"], outcome
        marks = expected_findings(path)
        if marks and {code for _, code in marks} <= {"JIT801", "JIT802", "JIT803", "JIT806"}:
            # raised in the body, at the marked line: the innermost frame of the script
            [(line, _)] = marks
            ours = [frame for frame in outcome["stack"] if Path(frame[0]) == path]
            if outcome["type"] == "RecursionError":  # the depth runs out anywhere in the cycle
                assert line in [frame[1] for frame in ours], outcome["stack"]
            else:
                assert ours and ours[0][1] == line, outcome["stack"]
    else:
        assert outcome["status"] == "ok", report["stderr"][-2000:]
    printed = PRINTS.search(text)
    if printed:
        assert _last_line(report["stdout"]) == printed["text"].strip(), report["stdout"]
    eager = EAGER.search(text)
    if eager:
        assert _last_line(eager_outputs[path]) == eager["text"].strip(), eager_outputs[path]
        assert eager["text"].strip() != printed["text"].strip()
        assert expected_findings(path), "a stale result is a finding"
    compiles = user_function_compiles(report, path)
    for name, count in declared_compiles(path).items():
        assert compiles.get(name, 0) == count, (name, compiles)
    counter = COUNTER.search(text)
    if counter:
        assert int(_last_line(report["stdout"])) == compiles[counter["name"]], (report["stdout"], compiles)


# ---------------------------------------------------------------------------- JIT804 is opt-in
OPT_IN_MARK = re.compile(r"#\s*expect-opt-in:\s*(JIT\d{3})")
PRINT_FIXTURES = sorted(p for p in FIXTURES.rglob("*.py") if OPT_IN_MARK.search(p.read_text()))


def test_print_of_tracer_is_off_by_default_and_found_when_selected():
    assert PRINT_FIXTURES
    for path in PRINT_FIXTURES:
        marked = {(n, m) for n, line in enumerate(path.read_text().splitlines(), start=1)
                  for m in OPT_IN_MARK.findall(line)}
        [default] = actual_findings([path])
        assert not any(d.code == "JIT804" for d in default.diagnostics)
        for selection in (Settings(extend_select=("JIT804",)), Settings(select=("JIT8",))):
            [selected] = actual_findings([path], selection)
            assert {(d.line, d.code) for d in selected.diagnostics if d.code == "JIT804"} == marked


def test_opt_in_rule_is_not_enabled_by_all_or_the_whole_prefix():
    source = b"import jax\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n"
    for select in (("JIT",), ("ALL",)):
        assert lint_source(source, "f.py", Settings(select=select)).diagnostics == []
    [found] = lint_source(source, "f.py", Settings(select=("JIT804",))).diagnostics
    assert found.code == "JIT804"


# ---------------------------------------------------------------------------- JIT401 advice
# Fixtures whose body needs the static argument as a Python value, and the error that dropping
# it from static_argnums raises (measured).
NEEDS_STATIC = {"static_loop_bound_per_iteration.py": "TracerIntegerConversionError",
                "static_pad_width_per_iteration.py": "ConcretizationTypeError"}


@pytest.fixture(scope="module")
def dropped_runs(tmp_path_factory) -> dict[str, ForkedRun]:
    """Each NEEDS_STATIC fixture run with its argument dropped from static_argnums."""
    pytest.importorskip("jax")
    directory = tmp_path_factory.mktemp("dropped")
    scripts = {name: directory / name for name in NEEDS_STATIC}
    for name, dropped in scripts.items():
        dropped.write_text((FIXTURES / "trace_misuse" / name).read_text()
                           .replace("@partial(jax.jit, static_argnums=1)", "@jax.jit"))
    runs = run_forked(scripts.values(), dict(os.environ, JAX_PLATFORMS="cpu"), counting=False)
    return {name: runs[dropped] for name, dropped in scripts.items()}


@pytest.mark.parametrize("name, error", NEEDS_STATIC.items())
def test_static_advice_never_says_drop_when_the_body_needs_a_python_value(request, name, error):
    """JIT401's advice follows the body: where the static argument is a loop bound or a pad
    width, dropping it from static_argnums raises (measured), so the message must not advise it."""
    path = FIXTURES / "trace_misuse" / name
    [result] = actual_findings([path])
    [finding] = [d for d in result.diagnostics if d.code == "JIT401"]
    assert "drop it" not in finding.message and "must stay static" in finding.message
    run = request.getfixturevalue("dropped_runs")[name]
    assert run.returncode != 0 and error in run.stderr


def test_static_advice_says_drop_when_the_body_takes_a_tracer():
    source = (b"from functools import partial\nimport jax\nimport jax.numpy as jnp\n\n"
              b"@partial(jax.jit, static_argnums=1)\ndef scale(x, factor):\n    return x * factor\n\n"
              b"for i in range(5):\n    scale(jnp.ones(3), i)\n")
    [finding] = lint_source(source, "s.py", Settings()).diagnostics
    assert finding.code == "JIT401" and "drop it from static_argnums" in finding.message
