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


# ``name: annotation = value`` somewhere in the text (a cheap test before any walk; a false
# match such as ``else: x = 1`` only costs the walk)
_MAYBE_ANNOTATED = re.compile(r"^[ \t]*[\w.]+[ \t]*:[^=\n]*[^=!<>:\n]=(?!=)", re.M)


def _small(small: cst.BaseSmallStatement, in_class: bool) -> cst.BaseSmallStatement:
    if isinstance(small, cst.AnnAssign) and small.value is not None and not in_class:
        return _plain(small)
    return small


def _suite(suite, in_class: bool):
    """A block of statements (``IndentedBlock``) or of small statements on one line
    (``SimpleStatementSuite``, ``if x: a: int = 1``), rebuilt only where something changed."""
    if isinstance(suite, cst.IndentedBlock):
        body = tuple(_statement(statement, in_class) for statement in suite.body)
    else:
        body = tuple(_small(small, in_class) for small in suite.body)
    return suite if all(a is b for a, b in zip(body, suite.body)) else suite.with_changes(body=body)


def _statement(statement: cst.CSTNode, in_class: bool) -> cst.CSTNode:
    """``statement`` with its annotated assignments in code made plain; the same object when
    it holds none, so nodes (and the caches keyed by them) stay shared."""
    if isinstance(statement, cst.SimpleStatementLine):
        return _suite(statement, in_class)
    changes = {}
    inner = isinstance(statement, cst.ClassDef) if isinstance(statement, (cst.ClassDef, cst.FunctionDef)) else in_class
    for field in ("body", "orelse", "handlers", "finalbody", "cases"):
        value = getattr(statement, field, None)
        if value is None:
            continue
        if isinstance(value, tuple):  # except handlers, match cases: each holds a suite
            new = tuple(part.with_changes(body=body) if (body := _suite(part.body, inner)) is not part.body else part
                        for part in value)
            changed = any(a is not b for a, b in zip(new, value))
        elif isinstance(value, (cst.IndentedBlock, cst.SimpleStatementSuite)):
            new = _suite(value, inner)
            changed = new is not value
        elif isinstance(value, cst.If):  # ``elif``
            new = _statement(value, in_class)
            changed = new is not value
        else:  # ``else:`` / ``finally:``
            body = _suite(value.body, inner)
            changed = body is not value.body
            new = value.with_changes(body=body) if changed else value
        if changed:
            changes[field] = new
    return statement.with_changes(**changes) if changes else statement


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


def without_variable_annotations(module: cst.Module, text: str) -> cst.Module:
    """``module`` (parsed from ``text``) with each annotated assignment in code (not a class
    body) made plain, every node at its original line and column; the module itself when it
    has none."""
    if not _MAYBE_ANNOTATED.search(text):
        return module
    body = tuple(_statement(statement, False) for statement in module.body)
    return module if all(a is b for a, b in zip(body, module.body)) else module.with_changes(body=body)
