"""The linter finds exactly the findings marked ``# expect: CODE`` in every fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import FIXTURES, actual_findings, expected_findings

FIXTURE_FILES = sorted(p for p in FIXTURES.rglob("*.py"))


def test_there_are_fixtures():
    assert len(FIXTURE_FILES) >= 20


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_findings_match_marks(path: Path):
    [result] = actual_findings([path])
    assert result.internal_error is None
    actual = {(d.line, d.code) for d in result.diagnostics}
    assert actual == expected_findings(path)
