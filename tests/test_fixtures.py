"""The linter finds exactly the findings marked ``# expect: CODE`` in every fixture."""

from __future__ import annotations

import functools
from pathlib import Path

import libcst as cst
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


class _Annotate(cst.CSTTransformer):
    """``x = v`` -> ``x: "Any" = v`` in code (not in class bodies, whose annotated names are
    fields), one target at a time: the typed spelling of the same program."""

    def __init__(self) -> None:
        super().__init__()
        self.class_body = [False]

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.class_body.append(True)

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.class_body.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.class_body.append(False)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.class_body.pop()
        return updated

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.BaseSmallStatement:
        if self.class_body[-1] or len(updated.targets) != 1 \
                or not isinstance(updated.targets[0].target, (cst.Name, cst.Attribute)):
            return updated
        return cst.AnnAssign(target=updated.targets[0].target, value=updated.value, semicolon=updated.semicolon,
                             annotation=cst.Annotation(cst.SimpleString('"Any"')))


def test_annotated_assignments_find_what_plain_ones_do(tmp_path):
    """Every fixture, its assignments in code annotated (``state: TrainState = step(state)``),
    gives the findings its marks expect, at the same lines: the analysis reads an annotated
    assignment as the assignment it is (jitlint/annotated.py)."""
    annotated = tmp_path / "fixtures"
    for path in FIXTURE_FILES:
        copy = annotated / path.relative_to(FIXTURES)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(cst.parse_module(path.read_text()).visit(_Annotate()).code)
    found: dict[Path, set] = {}
    for family in sorted(p for p in annotated.iterdir() if p.is_dir()):
        for result in actual_findings([family], WITH_GROUP):
            found[Path(result.path).resolve()] = {(d.line, d.code) for d in result.diagnostics}
    differing = [str(path.relative_to(FIXTURES)) for path in FIXTURE_FILES
                 if found.get((annotated / path.relative_to(FIXTURES)).resolve(), set()) != expected_findings(path)]
    assert not differing
