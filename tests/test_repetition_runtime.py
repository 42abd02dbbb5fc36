"""Issue 13's repetition model, measured: every fixture in fixtures/repetition runs for real
under the compile counter, and each jitted function defined there compiles exactly as often
as the fixture declares (``# runtime: NAME compiles N times``; 1 when not declared).  The
positive fixtures declare a compile per run of the code the linter reports, the negative ones
one compile (or one per genuinely different program).  Real JAX on the CPU."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import (FIXTURES, declared_compiles, expected_findings, run_all_counting_compiles,
                     user_function_compiles)

REPETITION = sorted((FIXTURES / "repetition").glob("*.py"))


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    pytest.importorskip("equinox")
    pytest.importorskip("flax")
    return run_all_counting_compiles(REPETITION)


def test_every_item_has_positive_and_negative_fixtures():
    positives = [p for p in REPETITION if expected_findings(p)]
    negatives = [p for p in REPETITION if not expected_findings(p)]
    assert len(positives) >= 10 and len(negatives) >= 10


@pytest.mark.parametrize("path", REPETITION, ids=lambda p: p.name)
def test_fixture_compiles_as_declared(path: Path, reports):
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = user_function_compiles(report, path)
    declared = declared_compiles(path)
    for name in declared.keys() - compiles.keys():  # JAX's own wrappers, e.g. eager lax.scan
        compiles[name] = sum(1 for e in report["compiles"] if e["fun_name"] == f"jit({name})")
    assert compiles, "the fixture compiled none of its own functions"
    for name, count in compiles.items():
        assert count == declared.get(name, 1), (name, dict(compiles))
    for name, count in declared.items():
        assert compiles.get(name, 0) == count, (name, dict(compiles))
    if expected_findings(path):
        assert max(compiles.values()) >= 2, "a positive fixture must show the recompiles it reports"


def test_a_loop_value_read_only_as_an_operand_is_to_be_passed_as_an_argument():
    """Hoisting the jit would freeze a value the loop changes: the advice is to pass it (5
    compiles for each loop of the fixture; ok_loop_value_passed_as_argument.py, the fix, 1)."""
    from jitlint.config import Settings
    from jitlint.engine import lint_file

    path = FIXTURES / "repetition" / "loop_value_traced_operand.py"
    messages = {d.line: d.message for d in lint_file(str(path), Settings()).diagnostics}
    for line, value in ((19, "lr"), (26, "scale")):
        assert f"captures the loop value `{value}`" in messages[line]
        assert f"pass `{value}` as an argument" in messages[line]
        assert "hoist" not in messages[line]
