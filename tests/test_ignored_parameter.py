"""JIT620, measured: a jitted loss that ignores its batch and reads a global batch returns
the same value for every batch it is given.  Real JAX on the CPU."""

from __future__ import annotations

import re

import pytest

from helpers import FIXTURES, expected_findings, run_all_counting_compiles

CASES = {"loss_reads_global_batch.py": 1, "loss_uses_its_batch_ok.py": 5,  # distinct losses in 5
         "predict_reads_loop_batch.py": 1}


@pytest.fixture(scope="module")
def reports() -> dict[str, dict]:
    pytest.importorskip("jax")
    return {path.name: report for path, report in
            run_all_counting_compiles(FIXTURES / "ignored_parameter" / name for name in CASES).items()}


@pytest.mark.parametrize("name, distinct", CASES.items())
def test_the_ignored_batch_makes_every_loss_the_same(name, distinct, reports):
    path = FIXTURES / "ignored_parameter" / name
    report = reports[name]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    assert re.search(r"^RESULT (\d+)$", report["stdout"], re.M)[1] == str(distinct)
    assert (expected_findings(path) != set()) == (distinct == 1)
