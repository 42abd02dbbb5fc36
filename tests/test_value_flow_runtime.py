"""Value-flow claims of the static-argument rules (issue 14), measured with real JAX on the CPU.

Every fixture in fixtures/static_values, fixtures/structure and fixtures/ragged_batches declares its outcome: ``# runtime: raises ValueError``
(then JAX's own message for non-hashable static arguments must be in the error), or
``# runtime: NAME compiles N times``.  A positive compiles its function more than once (N >= 2,
exactly as declared); a negative compiles each of its jitted functions once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import FIXTURES, declared_compiles, expected_findings, run_all_counting_compiles, user_function_compiles

SCRIPTS = [path for family in ("static_values", "structure", "ragged_batches")
           for path in sorted((FIXTURES / family).glob("*.py"))]
RAISES = re.compile(r"# runtime: raises (?P<type>\w+)")
NON_HASHABLE = "Non-hashable static arguments are not supported"


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    pytest.importorskip("equinox")
    pytest.importorskip("optax")
    return run_all_counting_compiles(SCRIPTS)


def test_positives_and_negatives_exist():
    positives = [p for p in SCRIPTS if expected_findings(p)]
    assert len(positives) >= 10 and len(SCRIPTS) - len(positives) >= 5


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_value_fixture_behaves_as_claimed(path: Path, reports):
    report = reports[path]
    text = path.read_text(encoding="utf-8")
    codes = {code for _, code in expected_findings(path)}
    raised = RAISES.search(text)
    if raised:
        assert codes == {"JIT301"}, codes
        assert report["outcome"]["status"] == "raised", "expected an error, the script ran fine"
        assert report["outcome"]["type"] == raised["type"], report["outcome"]
        assert NON_HASHABLE in report["outcome"]["message"], report["outcome"]["message"]
        return
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = user_function_compiles(report, path)
    declared = declared_compiles(path)
    if codes:
        assert declared and all(n >= 2 for n in declared.values()), declared
    for name, count in declared.items():
        assert compiles.get(name, 0) == count, (name, compiles)
    for name, count in compiles.items():
        assert count == declared.get(name, 1), (name, compiles)
