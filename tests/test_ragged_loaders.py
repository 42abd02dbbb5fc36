"""JIT504 on real data loaders (fixtures/ragged_loaders), measured with real JAX where the
loader's library is installed (``# requires: MODULE``; skipped otherwise): each positive
compiles its jitted function twice (the short last batch), each negative once."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import (FIXTURES, REQUIRES, declared_compiles, expected_findings, missing_requirement, run_counting_compiles,
                     user_function_compiles)

SCRIPTS = sorted((FIXTURES / "ragged_loaders").glob("*.py"))


def test_each_loader_has_a_positive_and_a_negative():
    for library in ("torch", "tf_data", "grain", "hf_datasets", "tfds"):
        mine = [p for p in SCRIPTS if p.name.startswith(library)]
        assert any(expected_findings(p) for p in mine) and any(not expected_findings(p) for p in mine)


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_loader_fixture_compiles_as_claimed(path: Path):
    pytest.importorskip("jax")
    assert REQUIRES.search(path.read_text(encoding="utf-8"))
    missing = missing_requirement(path)
    if missing is not None:
        pytest.skip(f"{missing} is not installed")
    report = run_counting_compiles(path)
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    declared = declared_compiles(path)
    assert declared
    compiles = user_function_compiles(report, path)
    for name, count in declared.items():
        assert compiles.get(name, 0) == count, (name, compiles)
    assert max(declared.values()) == (2 if expected_findings(path) else 1)
