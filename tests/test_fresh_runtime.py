"""JIT1xx claims, measured: each positive fixture really compiles on every iteration or call,
and each negative compiles each jitted function once.  Real JAX on the CPU."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import FIXTURES, declared_compiles, expected_findings, run_all_counting_compiles, user_function_compiles

FRESH = sorted((FIXTURES / "fresh").glob("*.py"))


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    return run_all_counting_compiles(FRESH)


@pytest.mark.parametrize("path", FRESH, ids=lambda p: p.name)
def test_fixture_runs_and_compiles_as_claimed(path: Path, reports):
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = user_function_compiles(report, path)
    if expected_findings(path):
        # Every scenario runs 5 iterations or calls: a recompile each time means >= 5.
        assert compiles and max(compiles.values()) >= 5, compiles
    else:
        declared = declared_compiles(path)
        for name, count in compiles.items():
            assert count == declared.get(name, 1), (name, compiles)
