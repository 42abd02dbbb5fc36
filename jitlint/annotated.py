"""The module the analysis reads: annotated assignments in code as plain ones.

``state: TrainState = train_step(state, batch)`` runs exactly as ``state = train_step(state,
batch)``, so every rule should read it so; rather than teach each pattern of each rule the
second statement form, the analysis tree spells such a statement as an ``Assign`` whose space
before ``=`` stands where the annotation was: every node keeps its line and column, so findings
point at the user's text.  Only the analysis reads this tree (``--fix`` edits a tree of its
own), and only statements in code are rewritten: a class body's annotated names are fields
(dataclasses, flax and equinox Modules, NamedTuples), read as such.
"""

from __future__ import annotations

import re

import libcst as cst

_SPACES = re.compile(r" *")
_CODE = cst.Module([]).code_for_node


class _PlainAssignments(cst.CSTTransformer):
    def __init__(self) -> None:
        super().__init__()
        self.bodies: list[bool] = [False]  # per enclosing def or class: is it a class body?

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.BaseExpression):
            return False  # no statement lies inside an expression (a lambda's body is one)
        if isinstance(node, (cst.ClassDef, cst.FunctionDef)):
            self.bodies.append(isinstance(node, cst.ClassDef))
        return True

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        if isinstance(original, (cst.ClassDef, cst.FunctionDef)):
            self.bodies.pop()
        if isinstance(updated, cst.AnnAssign) and updated.value is not None and not self.bodies[-1]:
            return _plain(updated)
        return updated


def _plain(statement: cst.AnnAssign) -> cst.BaseSmallStatement:
    assert statement.value is not None
    code = _CODE(statement.with_changes(semicolon=cst.MaybeSentinel.DEFAULT))
    target, value = _CODE(statement.target), _CODE(statement.value)
    head = code[:len(code) - len(value)] if code.endswith(value) else ""
    equal = head.rfind("=")
    after = head[equal + 1:]
    if "\n" in head or equal < len(target) or not _SPACES.fullmatch(after) or not head.startswith(target):
        return statement  # an annotation over several lines: left as written
    return cst.Assign(targets=[cst.AssignTarget(
        statement.target, whitespace_before_equal=cst.SimpleWhitespace(" " * (equal - len(target))),
        whitespace_after_equal=cst.SimpleWhitespace(after))], value=statement.value, semicolon=statement.semicolon)


def without_variable_annotations(module: cst.Module) -> cst.Module:
    """``module`` with each annotated assignment in code (not a class body) made plain, every
    node at its original line and column; the module itself when it has none."""
    return module.visit(_PlainAssignments())
