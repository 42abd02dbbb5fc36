"""Safe automatic fixes: ``jitlint check --fix`` writes them, ``--diff`` shows them.

A fix is a libcst edit of the original tree (``Edit``), so comments and formatting outside
the rewritten nodes are kept byte for byte.  Each module in this package (not starting with
``_``) fixes the rule codes in its ``CODES`` with a function
``fix(ctx: FileContext, violation: Violation) -> Optional[Edit]`` that returns None whenever
the fix is not certainly safe; adding a fix is adding one module.

How a file is fixed (``fix_source``):
* the engine lints it first: only findings it reports (after ``# noqa``, per-file ignores and
  selection) are fixed, and a file that does not decode or parse is never touched;
* the rules with fixes run on a fresh libcst tree; each finding's fixer proposes an edit;
  edits whose regions nest are deferred to the next pass; passes repeat until nothing changes;
* the result must still parse, else the file is left as it was; it is written back in the
  file's own encoding (BOM and PEP 263 cookie kept) and newline style;
* it is written atomically (``write_if_unchanged``: a temporary file in the same directory,
  given the original's permissions, then ``os.replace``), and only if the file still holds the
  bytes that were fixed: a file changed on disk meanwhile is reported and left alone.
"""

from __future__ import annotations

import ast
import codecs
import difflib
import importlib
import io
import os
import pkgutil
import stat
import tempfile
import tokenize
import warnings
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from jitlint.cache import ResultCache
from jitlint.config import Settings
from jitlint.engine import lint_source
from jitlint.source import SourceError, decode_source, read_source
from jitlint.rule import FileContext, Violation
from jitlint.rules import ALL_RULES
from jitlint.semantic import build_model

MAX_PASSES = 25


@dataclass(eq=False)
class Edit:
    """Changes to the original tree, by node identity.

    ``regions`` are the nodes the edit rewrites in or around (two edits whose regions nest are
    never applied in the same pass); ``replace`` maps a node to its new version; ``remove``
    drops statements; ``insert_before`` puts new statements before a statement.
    """

    regions: tuple[cst.CSTNode, ...]
    replace: dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)
    remove: set[cst.CSTNode] = field(default_factory=set)
    insert_before: dict[cst.CSTNode, list[cst.BaseStatement]] = field(default_factory=dict)
    description: str = ""


Fixer = Callable[[FileContext, Violation], Optional[Edit]]


def _discover() -> dict[str, Fixer]:
    fixers: dict[str, Fixer] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for code in module.CODES:
            if code in fixers:
                raise RuntimeError(f"two fixes for {code}")
            fixers[code] = module.fix
    return dict(sorted(fixers.items()))


FIXERS: dict[str, Fixer] = _discover()


def fixable_codes() -> list[str]:
    return [code for code in FIXERS if code in ALL_RULES]


@dataclass
class FixResult:
    path: str
    original: bytes
    fixed: bytes
    applied: list[tuple[str, int, str]] = field(default_factory=list)  # (code, line, description)
    not_written: Optional[str] = None  # why a changed file was not written back

    @property
    def changed(self) -> bool:
        return self.fixed != self.original

    def diff(self) -> str:
        before = decode_source(self.original).splitlines(keepends=True)
        after = decode_source(self.fixed).splitlines(keepends=True)
        lines = difflib.unified_diff(before, after, self.path, self.path)
        return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
                       for line in lines)


# ---------------------------------------------------------------------------- fixing
def fix_data(data: bytes, path: str, settings: Settings) -> FixResult:
    """A file's bytes (from disk, or an editor's buffer named ``path``), a notebook or Python."""
    from jitlint.notebook import is_notebook

    if is_notebook(path):  # cell by cell, outputs and metadata kept
        from jitlint.fixes._notebook import fix_notebook

        return fix_notebook(data, path, settings)
    return fix_source(data, path, settings)


def fix_source(data: bytes, path: str, settings: Settings) -> FixResult:
    result = FixResult(path, data, data)
    try:
        text = decode_source(data)
        encoding = _encoding(data)
    except SourceError:
        return result  # never touch a file we cannot read as Python
    current = data
    for _ in range(MAX_PASSES):
        linted = lint_source(current, path, settings)
        if linted.internal_error or any(d.code == "JIT000" for d in linted.diagnostics):
            return result if current is data else _finish(result, current)
        wanted = {(d.code, d.line, d.column) for d in linted.diagnostics if d.code in FIXERS}
        if not wanted:
            break
        edits = _propose(text, path, settings, wanted)
        if not edits:
            break
        module, applied = edits
        new_text = module.code
        if new_text == text or not _parses(new_text):
            break
        try:
            new_data = _encode(new_text, encoding, data)
        except UnicodeEncodeError:
            break
        result.applied.extend(applied)
        text, current = new_text, new_data
    return _finish(result, current)


def _finish(result: FixResult, current: bytes) -> FixResult:
    result.fixed = current
    return result


def _propose(text: str, path: str, settings: Settings, wanted: set) -> Optional[tuple[cst.Module, list]]:
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        return None
    ctx = FileContext(path, module, build_model(module), settings.extra_jit_functions)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    parents = _parents(module)
    accepted: list[Edit] = []
    applied: list[tuple[str, int, str]] = []
    for code in sorted({code for code, _, _ in wanted}):
        rule = ALL_RULES[code]()
        for violation in rule.check(ctx):
            start = positions[violation.node].start
            if (code, start.line, start.column + 1) not in wanted:
                continue
            edit = FIXERS[code](ctx, violation)
            if edit is None or any(_overlap(edit, other, parents) for other in accepted):
                continue
            accepted.append(edit)
            applied.append((code, start.line, edit.description))
    if not accepted:
        return None
    return module.visit(_Apply(accepted)), applied


def _overlap(a: Edit, b: Edit, parents: dict) -> bool:
    def ancestors(node):
        while node is not None:
            yield node
            node = parents.get(node)

    for x in a.regions:
        for y in b.regions:
            if any(n is y for n in ancestors(x)) or any(n is x for n in ancestors(y)):
                return True
    return False


def _parents(module: cst.Module) -> dict:
    parents: dict = {}

    class _Visitor(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            for child in node.children:
                parents[child] = node
            return True

    module.visit(_Visitor())
    return parents


class _Apply(cst.CSTTransformer):
    def __init__(self, edits: Sequence[Edit]) -> None:
        super().__init__()
        self.replace: dict = {}
        self.remove: set = set()
        self.insert_before: dict = {}
        for edit in edits:
            self.replace.update(edit.replace)
            self.remove.update(edit.remove)
            for statement, new in edit.insert_before.items():
                self.insert_before.setdefault(statement, []).extend(new)

    def on_leave(self, original_node, updated_node):
        if original_node in self.replace:
            return self.replace[original_node]
        if isinstance(updated_node, (cst.Module, cst.IndentedBlock)):
            return self._rebuild(original_node, updated_node)
        return updated_node

    def _rebuild(self, original, updated):
        body: list = []
        strip_blank = False  # the block's first statement was removed: no blank line at its top
        for old, new in zip(original.body, updated.body):
            inserted = list(self.insert_before.get(old, ()))
            for statement in inserted:
                if body and (_is_compound(statement) or _is_compound(body[-1])) \
                        and not _has_blank(statement):
                    statement = statement.with_changes(
                        leading_lines=[cst.EmptyLine(indent=False), *statement.leading_lines])
                body.append(statement)
            if old in self.remove:
                strip_blank = strip_blank or not body
                continue
            if strip_blank:
                new = new.with_changes(leading_lines=_strip_blank(new.leading_lines))
                strip_blank = False
            if inserted and _is_compound(inserted[-1]) and not _has_blank(new):
                new = new.with_changes(leading_lines=[cst.EmptyLine(indent=False), *new.leading_lines])
            body.append(new)
        if not body and isinstance(updated, cst.IndentedBlock):
            body = [cst.SimpleStatementLine([cst.Pass()])]
        return updated.with_changes(body=body)


def _is_compound(statement: cst.CSTNode) -> bool:
    return isinstance(statement, (cst.FunctionDef, cst.ClassDef))


def _has_blank(statement: cst.CSTNode) -> bool:
    lines = getattr(statement, "leading_lines", ())
    return bool(lines) and lines[0].comment is None


def _strip_blank(lines) -> list:
    lines = list(lines)
    while lines and lines[0].comment is None:
        lines.pop(0)
    return lines


# ---------------------------------------------------------------------------- bytes
def _encoding(data: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8"
    return "utf-8" if encoding == "utf-8-sig" else encoding


def _encode(text: str, encoding: str, original: bytes) -> bytes:
    bom = codecs.BOM_UTF8 if original.startswith(codecs.BOM_UTF8) else b""
    return bom + text.encode(encoding)


def _parses(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


def fixable(diagnostics: Sequence, settings: Settings, sources: Optional[dict] = None,
            cache: Optional[ResultCache] = None) -> set:
    """The diagnostics that ``--fix`` would fix now (for ``[*]`` markers and the summary): their
    fixer proposes an edit.  Only files with findings of fixable codes are parsed again
    (``sources``: path -> bytes for a file not on disk, stdin), and with a ``cache`` only
    when their bytes or those findings changed."""
    by_path: dict[str, set] = {}
    notebooks: set[str] = set()
    for d in diagnostics:
        if d.code in FIXERS and d.cell is None:
            by_path.setdefault(d.path, set()).add((d.code, d.line, d.column))
        elif d.code in FIXERS:
            notebooks.add(d.path)
    found = set()
    for path in notebooks:  # fixed as a whole: the fixes it would apply, by joined-source line
        from jitlint.fixes._notebook import fix_notebook

        try:
            applied = fix_notebook(read_source(path), path, settings).applied
        except Exception:
            continue
        found.update((path, code, line) for code, line, _ in applied)
    marked = {d for d in diagnostics if d.cell is not None and (d.path, d.code, d.absolute_line) in found}
    for path, wanted in by_path.items():
        try:
            data = (sources or {}).get(path) or read_source(path)
            key = cache.key(path, data, repr(("fixable", sorted(wanted))).encode()) if cache else None
            entry = cache.get(key) if cache and key else None
            if not (isinstance(entry, tuple) and len(entry) == 2 and entry[0] == "fixable"):
                entry = ("fixable", tuple(sorted(_fixable_in(data, path, wanted, settings))))
                if cache and key:
                    cache.put(key, entry)
            found.update((path, *where) for where in entry[1])
        except Exception:  # the marker is a hint: a file that fails here is simply not marked
            continue
    return marked | {d for d in diagnostics if d.cell is None and (d.path, d.code, d.line, d.column) in found}


def _fixable_in(data: bytes, path: str, wanted: set, settings: Settings) -> set:
    """The (code, line, column) of ``wanted`` whose fixer proposes an edit."""
    module = cst.parse_module(decode_source(data))
    ctx = FileContext(path, module, build_model(module), settings.extra_jit_functions)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = set()
    for code in sorted({code for code, _, _ in wanted}):
        for violation in ALL_RULES[code]().check(ctx):
            start = positions[violation.node].start
            key = (code, start.line, start.column + 1)
            if key in wanted and FIXERS[code](ctx, violation) is not None:
                found.add(key)
    return found


# ---------------------------------------------------------------------------- many files
def fix_files(files: Iterable[str], settings: Settings, write: bool) -> list[FixResult]:
    """Fix each file; write the changed ones back when ``write``.  Unreadable files are skipped."""
    results = []
    for path in files:
        try:
            result = fix_data(read_source(path), path, settings)
        except OSError:
            continue
        if result.changed and write:
            result.not_written = write_if_unchanged(path, result.fixed, result.original)
        results.append(result)
    return results


def write_if_unchanged(path: str, data: bytes, expected: bytes) -> Optional[str]:
    """Replace the file's bytes with ``data`` if it still holds ``expected``; None when written,
    else why not.  Atomic: readers see the old file or the new one, never a part; a crash or a
    full disk leaves the old one.  Permissions are kept; a symlink stays a symlink (its target
    is rewritten)."""
    target = os.path.realpath(path)
    try:
        info = os.stat(target)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target),
                                   prefix=f".{os.path.basename(target)}.", suffix=".jitlint-tmp")
    except OSError as exc:
        return f"cannot write it: {exc.strerror or exc}"
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, stat.S_IMODE(info.st_mode))
        if hasattr(os, "chown"):
            try:
                os.chown(tmp, info.st_uid, info.st_gid)
            except OSError:
                pass  # not ours to give away: it stays the writer's, as with any editor
        with open(target, "rb") as handle:
            if handle.read() != expected:
                os.unlink(tmp)
                return "it changed on disk while it was being fixed; not written"
        os.replace(tmp, target)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return f"cannot write it: {exc.strerror or exc}"
    return None
