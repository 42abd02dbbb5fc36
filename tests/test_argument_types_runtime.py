"""Values jit cannot take, return or hash, measured with real JAX on the CPU: JIT807 / JIT805 (and
the hashed equinox objects of JIT301) in fixtures/argument_types, JIT808 in fixtures/output_values,
JIT809 in fixtures/hashed_tracers.

Every fixture there declares what it does: ``# runtime: raises NAME`` with
``# runtime message: TEXT`` (a part of JAX's message: which type it could not take) for a
positive; a negative runs without error.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import FIXTURES, expected_findings, run_all_counting_compiles

SCRIPTS = sorted(path for family in ("argument_types", "output_values", "hashed_tracers")
                 for path in (FIXTURES / family).glob("*.py"))  # argument_types/steps/: an imported package
RAISES = re.compile(r"^# runtime: raises (?P<name>\w+)$", re.M)
MESSAGE = re.compile(r"^# runtime message: (?P<text>.+)$", re.M)


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    pytest.importorskip("equinox")
    return run_all_counting_compiles(SCRIPTS)


def test_positives_declare_an_error_and_negatives_none():
    assert len(SCRIPTS) >= 10
    for path in SCRIPTS:
        text = path.read_text(encoding="utf-8")
        assert bool(expected_findings(path)) == bool(RAISES.search(text)) == bool(MESSAGE.search(text)), path.name


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_fixture_behaves_as_declared(path: Path, reports):
    report, text = reports[path], path.read_text(encoding="utf-8")
    outcome = report["outcome"]
    raised = RAISES.search(text)
    if raised is None:
        assert outcome["status"] == "ok", report["stderr"][-2000:]
        return
    assert outcome["status"] == "raised", report["stdout"][-2000:]
    assert outcome["type"] == raised["name"], outcome
    assert MESSAGE.search(text)["text"].strip() in outcome["message"], outcome["message"]
    # raised at the marked call (or, for a decorator's finding, at the call below it)
    marked = {line for line, _ in expected_findings(path)}
    ours = {frame[1] for frame in outcome["stack"] if Path(frame[0]) == path}
    assert ours & marked or (ours and min(ours) > max(marked)), outcome["stack"]
