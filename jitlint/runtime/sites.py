"""Where a static finding shows up at run time (parent side; never imports JAX).

A finding is a span of lines.  At run time it is seen in three ways:

* **call site**: a compile whose innermost frame in the finding's file lies in the span
  (``jax.jit(lambda ...)(x)``, a jitted function called with a bad static argument);
* **definition site**: a compile of a function that JAX's cache-miss explanation says was
  "defined at FILE:N", where N is the first line (first decorator) of the callable the finding's
  jit wraps, when that callable is created anew at run time (a nested ``def`` or a lambda).
  This covers ``@jax.jit`` on a nested def, which compiles where it is *called*, and a
  factory's ``return jax.jit(step)``, which compiles where ``make(...)(...)`` is called;
* **executions**: how often the statement holding the finding ran (its "calls").

What confirms a finding depends on what the rule predicts (``kind``): compiles, an exception
raised at the site (caught or not), or a stale value (a value read or written by a jitted body
that differs from what a later call, reusing the compiled program, would see).
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from jitlint.engine import Diagnostic
from jitlint.source import decode_source, read_source
from jitlint.rule import FileContext
from jitlint.semantic import build_model


# What each rule predicts, and so what confirms it at run time.  Rules not listed predict
# compiles.  Those in UNCHECKED predict neither compiles nor an exception, nor a value the run
# watches (a tracer printed once, an update silently dropped): they get the "compile" verdicts,
# which at best say "not reproduced".  docs/confirm.md lists every rule's kind (a test holds it
# to verdict_kind).
ERROR_CODES = frozenset({"JIT203", "JIT204", "JIT301", "JIT701", "JIT702", "JIT703", "JIT801", "JIT802", "JIT803",
                         "JIT704", "JIT706", "JIT707", "JIT708", "JIT709", "JIT805", "JIT806", "JIT807", "JIT809", "JIT810", "JIT811", "JIT812", "JIT813",
                         "JIT814", "JIT815", "JIT817", "JIT818"})
STALE_KINDS = {"JIT601": "read", "JIT602": "write"}
# JIT808's TypeError is raised after the jitted function returned, from JAX's frames below the
# call, never on the flagged `return` line.
# JIT705 points at the in_axes tuple; vmap raises at the call, usually on another line.
# JIT816's UnexpectedTracerError is raised where a later trace uses the cached tracer, never on
# the memoising decorator.
UNCHECKED = frozenset({"JIT603", "JIT604", "JIT610", "JIT620", "JIT705", "JIT804", "JIT808", "JIT816", "JIT820"})
# Recompilation findings about a function object made anew each time: confirmed by the compiles
# of all the jit objects made there.  The other recompilation findings say that one jitted
# function compiles again (a new shape, a new static value): confirmed only when one jit object
# compiled more than once.
NEW_OBJECT_CODES = frozenset({"JIT101", "JIT102", "JIT103", "JIT104", "JIT105", "JIT110",
                              "JIT202"})
# Eager lax control flow: confirmed by the programs JAX builds for the control flow itself
# (``jit(scan)``, ``jit(while)``, ``jit(cond)``) at the finding's lines; no jit of the user's
# makes them.
EAGER_CONTROL_FLOW_CODES = frozenset({"JIT520"})
NOT_RUN_CODES = frozenset({"JIT000"})  # an unparsable file is not run
RUNTIME_ONLY_CODES = frozenset({"JIT900"})  # found by the run itself


def kind_of(code: str) -> str:
    """"compile", "error", "read" or "write" (the last two: stale values)."""
    if code in ERROR_CODES:
        return "error"
    return STALE_KINDS.get(code, "compile")


def verdict_kind(code: str) -> str:
    """What a rule's ``--confirm`` verdict is about, in docs/confirm.md's words."""
    if code in NOT_RUN_CODES:
        return "not run"
    if code in RUNTIME_ONLY_CODES:
        return "runtime-only"
    if code in UNCHECKED:
        return "unchecked"
    return {"compile": "recompilation", "error": "error", "read": "stale read",
            "write": "trace-time write"}[kind_of(code)]


@dataclass(frozen=True)
class Site:
    ident: int
    diagnostic: Diagnostic
    path: str  # realpath of the finding's file
    first: int
    last: int
    def_lines: frozenset[int]  # first lines of the fresh callable(s) the finding's jit wraps
    count: Optional[tuple[int, int, str, int]]  # statement lines, owner code name, owner line
    kind: str = "compile"  # see kind_of
    names: tuple[str, ...] = ()  # for stale findings: the outer names read or written
    # a finding inside a comprehension: its (line, byte column, end line, end byte column),
    # whose evaluations are counted one by one (the statement runs once for all of them)
    evaluated: Optional[tuple[int, int, int, int]] = None
    # (first, last) lines where the flagged code runs, when not at the finding (engine.Related
    # ``runs``: the loop call that feeds a weakly typed state back): compiles there are its own
    runs: tuple[tuple[int, int], ...] = ()

    def holds(self, line: int) -> bool:
        """``line`` is one of the finding's, or one where the flagged code runs."""
        return self.first <= line <= self.last or any(first <= line <= last for first, last in self.runs)

    @property
    def eager_control_flow(self) -> bool:
        return self.diagnostic.code in EAGER_CONTROL_FLOW_CODES

    @property
    def per_object(self) -> bool:
        """Confirmed only by one jit object compiling more than once (see NEW_OBJECT_CODES)."""
        return self.kind == "compile" and self.diagnostic.code not in NEW_OBJECT_CODES


def real(path: str) -> str:
    return os.path.realpath(path)


def build_sites(diagnostics: Sequence[Diagnostic], extra_jit_functions: Sequence[str] = ()) -> list[Site]:
    by_path: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        by_path.setdefault(d.path, []).append(d)
    sites: list[Site] = []
    for path, found in by_path.items():
        try:
            text = decode_source(read_source(path))
        except Exception:
            text = None
        jit_spans = _jit_def_lines(text, path, extra_jit_functions) if text is not None else []
        tree = _ast(text) if text is not None else None
        for d in found:
            def_lines = frozenset(line for (first, last, lines) in jit_spans
                                  if first <= d.end_line and d.line <= last for line in lines)
            runs = tuple((r.line, r.end_line) for r in d.related if r.runs and d.cell is None)
            count = _statement_range(tree, runs[0][0] if runs else d.line) if tree is not None else None
            kind = kind_of(d.code)
            names = _names_at(tree, d, kind) if tree is not None else ()
            evaluated = _in_comprehension(tree, text, d) if tree is not None and not runs else None
            sites.append(Site(len(sites), d, real(path), d.line, d.end_line, def_lines, count,
                              kind, names, evaluated, runs))
    return sites


def line_specs(sites: Iterable[Site]) -> list[list]:
    """What the child counts: ``[id, file, first, last, owner, owner_line, kind, names,
    evaluated]`` per site (see bootstrap.py)."""
    specs = []
    for site in sites:
        if site.count is None:
            continue
        first, last, owner, owner_line = site.count
        for name in {site.path, os.path.abspath(site.diagnostic.path)}:
            specs.append([site.ident, name, first, last, owner, owner_line, site.kind,
                          list(site.names), list(site.evaluated) if site.evaluated else None])
    return specs


def _names_at(tree: ast.Module, d: Diagnostic, kind: str) -> tuple[str, ...]:
    """The outer names a stale-value finding is about: the name read at the finding's position
    (JIT601), the names of its ``global``/``nonlocal`` statement (JIT602)."""
    if kind == "read":
        # The dotted name the finding spans (``self.w``, ``config.lr``), else the innermost
        # one starting there, else the plain name.
        dotted = sorted(((node.end_col_offset or 0) != d.end_column - 1, len(name), name)
                        for node in ast.walk(tree)
                        if isinstance(node, ast.Attribute) and node.lineno == d.line
                        and node.col_offset == d.column - 1
                        for name in [_dotted(node)] if name is not None)
        if dotted:
            return (dotted[0][2],)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.lineno == d.line and node.col_offset == d.column - 1:
                return (node.id,)
    elif kind == "write":
        # JIT602 points at the global/nonlocal statement or at the traced use of the outer name
        # (read into the result, a tracer stored, a key split): the names are those the
        # enclosing function declares, narrowed to the ones used on the finding's line.
        functions = [node for node in ast.walk(tree)
                     if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and node.lineno <= d.line <= (node.end_lineno or node.lineno)]
        if not functions:
            return ()
        body = max(functions, key=lambda node: node.lineno)
        declared = [name for node in ast.walk(body) if isinstance(node, (ast.Global, ast.Nonlocal))
                    for name in node.names]
        on_line = {node.id for node in ast.walk(body) if isinstance(node, ast.Name) and node.lineno == d.line}
        return tuple(name for name in declared if name in on_line) or tuple(declared)
    return ()


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _in_comprehension(tree: ast.Module, text: str, d: Diagnostic) -> Optional[tuple[int, int, int, int]]:
    """The finding's span in bytes (as code objects' positions are) when it lies inside a
    comprehension; else None."""
    lines = text.splitlines()
    if not 0 < d.line <= len(lines) or not 0 < d.end_line <= len(lines):
        return None
    start = (d.line, len(lines[d.line - 1][:d.column - 1].encode()))
    end = (d.end_line, len(lines[d.end_line - 1][:d.end_column - 1].encode()))
    for node in ast.walk(tree):
        if isinstance(node, _COMPREHENSIONS) and \
                (node.lineno, node.col_offset) < start and \
                end <= (node.end_lineno or node.lineno, node.end_col_offset or 0):
            return (*start, *end)
    return None


def _dotted(node: ast.expr) -> Optional[str]:
    """``self.w`` for an attribute chain on a name; None for anything else (a call, a subscript)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


# ---------------------------------------------------------------------------- definitions
def _jit_def_lines(text: str, path: str, extra: Sequence[str]) -> list[tuple[int, int, frozenset[int]]]:
    """(anchor first line, anchor last line, first lines of fresh wrapped callables) per jit."""
    try:
        module = cst.parse_module(text)
    except Exception:
        return []
    ctx = FileContext(path, module, build_model(module), extra)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = []
    for app in ctx.jit_applications:
        lines: set[int] = set()
        target = app.target
        if isinstance(target, cst.FunctionDef):
            if _created_at_run_time(app.frame):
                lines.add(_first_line(target, positions))
        elif isinstance(target, cst.Lambda):
            lines.add(positions[target].start.line)
        elif isinstance(target, cst.Name):
            binding = ctx.model.single_binding(target.value, app.frame.scope)
            if binding is not None and binding.frame is not None and _created_at_run_time(binding.frame):
                if isinstance(binding.node, cst.FunctionDef):
                    lines.add(_first_line(binding.node, positions))
                elif isinstance(binding.value, cst.Lambda):
                    lines.add(positions[binding.value].start.line)
        span = positions[app.anchor]
        found.append((span.start.line, span.end.line, frozenset(lines)))
    return found


def _created_at_run_time(frame) -> bool:
    """A def in a function body or a loop runs (creating a new function) again and again; a
    module-level def runs once, and its compiles are better seen at their call sites."""
    return frame.scope.kind == "function" or bool(frame.loops_in_scope())


def _first_line(function: cst.FunctionDef, positions) -> int:
    """``co_firstlineno``: the first decorator's line, else the ``def`` line."""
    lines = [positions[d].start.line for d in function.decorators]
    lines.append(positions[function.name].start.line)
    return min(lines)


# ---------------------------------------------------------------------------- statements
def _ast(text: str) -> Optional[ast.Module]:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _start(stmt: ast.stmt) -> int:
    return min([d.lineno for d in getattr(stmt, "decorator_list", ())] + [stmt.lineno])


def _children(stmt: ast.stmt) -> list[ast.stmt]:
    children: list[ast.stmt] = []
    for name in ("body", "orelse", "finalbody"):
        value = getattr(stmt, name, None)
        if isinstance(value, list):
            children.extend(s for s in value if isinstance(s, ast.stmt))
    for handler in getattr(stmt, "handlers", ()):
        children.extend(handler.body)
    for case in getattr(stmt, "cases", ()):
        children.extend(case.body)
    return children


def _statement_range(tree: ast.Module, line: int) -> Optional[tuple[int, int, str, int]]:
    """The statement (or compound statement's header) holding ``line``, and the code object
    that executes it: ``(first, last, co_name, co_firstlineno)``."""
    owner = ("<module>", 1)
    body: list[ast.stmt] = tree.body
    while True:
        stmt = next((s for s in body if _start(s) <= line <= (s.end_lineno or s.lineno)), None)
        if stmt is None:
            return None
        children = _children(stmt)
        inner = [c for c in children if _start(c) <= line <= (c.end_lineno or c.lineno)]
        if not inner:
            if not children:  # a simple statement
                return (_start(stmt), stmt.end_lineno or stmt.lineno, owner[0], owner[1])
            body_start = min(_start(c) for c in children)
            if line < body_start:  # the header: decorators, ``def``, ``for ...:``
                return (_start(stmt), body_start - 1, owner[0], owner[1])
            return (line, line, owner[0], owner[1])  # ``else:`` and the like
        if isinstance(stmt, _SCOPES):
            owner = (stmt.name, _start(stmt))
        body = children
