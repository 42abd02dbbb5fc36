"""fixtures/real/: reproductions of what jitlint found in the JAX ecosystem (docs/validation.md).

Each true positive, run with real JAX, recompiles at one call site again and again; each
former false positive (now silent) compiles exactly as its comment declares."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from helpers import (FIXTURES, declared_compiles, expected_findings, run_all_counting_compiles,
                     user_function_compiles)

REAL = sorted((FIXTURES / "real").glob("*.py"))


def _compiles_per_site(report: dict, script: Path) -> Counter:
    sites: Counter = Counter()
    for event in report["compiles"]:
        frame = next((f for f in event["stack"] if Path(f[0]) == script.resolve()), None)
        if frame is not None:
            sites[frame[1]] += 1
    return sites


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    return run_all_counting_compiles(REAL)


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_world_reproduction(path: Path, reports):
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    if expected_findings(path):
        # Each scenario calls the flagged code 4-5 times: one site compiles every time.
        assert max(_compiles_per_site(report, path).values()) >= 4, report["compiles"]
    else:
        declared = declared_compiles(path)
        for name, count in user_function_compiles(report, path).items():
            assert count == declared.get(name, 1), (name, count)
