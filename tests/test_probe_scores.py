"""The probe sets (validation/probes: programs written from JAX's documentation, each marked
with what jitlint should report) score at least what they scored when their last fix landed.
Static only: jitlint's command line in this process, no JAX (measure.py runs them under JAX)."""

import importlib.util
import sys
from pathlib import Path

import pytest

PROBES = Path(__file__).resolve().parent.parent / "validation" / "probes"


def _harness():
    spec = importlib.util.spec_from_file_location("probe_harness", PROBES / "harness.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("probe_set, recall, precision", [
    ("routes", 0.85, 1.00),
    ("trace_time", 0.92, 1.00),
    ("respell", 1.00, 1.00),
])
def test_probe_set_scores_at_least(probe_set, recall, precision):
    result = _harness().score(PROBES / probe_set)
    assert result.recall >= recall and result.precision >= precision, \
        result.summary() + "\n" + "\n".join(result.lines)
