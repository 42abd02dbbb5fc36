"""The linter finds exactly the findings marked ``# expect: CODE`` in every fixture."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from jitlint.config import Settings
from jitlint.rule import UNKNOWN_CALLERS

from helpers import FIXTURES, ROOT, actual_findings, expected_findings, expected_in_group

FIXTURE_FILES = sorted(p for p in FIXTURES.rglob("*.py"))
# The opt-in group too: its findings are marked ``# expect: JIT105 (unknown-callers)``
WITH_GROUP = Settings(root=ROOT, extend_select=(UNKNOWN_CALLERS,))


def test_there_are_fixtures():
    assert len(FIXTURE_FILES) >= 20


@functools.lru_cache(maxsize=None)
def _family_results(family: Path) -> dict:
    """A family holding a package (multi-module fixtures) is linted as one tree."""
    return {Path(r.path).resolve(): r for r in actual_findings([family], WITH_GROUP)}


def _lint_fixture(path: Path):
    family = FIXTURES / path.relative_to(FIXTURES).parts[0]
    if any(family.glob("*/__init__.py")):
        return _family_results(family)[path.resolve()]
    [result] = actual_findings([path], WITH_GROUP)
    return result


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_findings_match_marks(path: Path):
    result = _lint_fixture(path)
    assert result.internal_error is None
    actual = {(d.line, d.code) for d in result.diagnostics}
    assert actual == expected_findings(path)
    assert {(d.line, d.code) for d in result.diagnostics if d.group == UNKNOWN_CALLERS} \
        == expected_in_group(path)
