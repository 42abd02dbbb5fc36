"""Automatic fixes: ``jitlint check --fix`` writes them, ``--diff`` shows them.

A fix is a libcst edit of the original tree (``Edit``), so comments and formatting outside
the rewritten nodes are kept byte for byte.  Each module in this package (not starting with
``_``) fixes the rule codes in its ``CODES`` with a function
``fix(ctx: FileContext, violation: Violation) -> Edit | Refusal``; adding a fix is adding one
module.  As in ruff, a fix is *safe* (``--fix`` applies it) when it certainly keeps what the
program does, *unsafe* (``Edit.unsafe_because``; applied only with ``--unsafe-fixes``) when it
is probably right but could change behaviour in a case the fixer cannot rule out, and refused
(``Refusal``, with the reason ``--show-fixes`` prints) when it is known or likely to be wrong.

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
from typing import Callable, Iterable, Iterator, NamedTuple, Optional, Sequence, Union

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from jitlint.cache import ResultCache
from jitlint.config import Settings
from jitlint.engine import lint_source
from jitlint.source import SourceError, decode_source, read_source
from jitlint.rule import FileContext, Violation
from jitlint.rules import ALL_RULES
from jitlint.semantic import build_model
from jitlint.walk import ancestors, parent_map

MAX_PASSES = 25
SAFE, UNSAFE = "safe", "unsafe"  # a fix's applicability, as ruff names them


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
    unsafe_because: Optional[str] = None  # set for an unsafe fix: what could change

    @property
    def applicability(self) -> str:
        return SAFE if self.unsafe_because is None else UNSAFE


@dataclass(frozen=True)
class Refusal:
    """A fixer's answer when it offers no fix for a finding: why (``--show-fixes``)."""

    reason: str


Fixer = Callable[[FileContext, Violation], Union[Edit, Refusal]]


@dataclass(frozen=True)
class FixOffer:
    """What the fixes can do for one finding: a fix of ``applicability`` "safe" or "unsafe"
    described by ``message`` (an unsafe one says what could change), or (``applicability``
    None) no fix, and ``message`` says why."""

    applicability: Optional[str]
    message: str
    unsafe_because: Optional[str] = None

    def applies(self, unsafe_fixes: bool) -> bool:
        return self.applicability == SAFE or (unsafe_fixes and self.applicability == UNSAFE)


NO_FIX = FixOffer(None, "no fix for this rule")
LOST = FixOffer(None, "refused: the fixer did not find the finding again")


class AppliedFix(NamedTuple):
    code: str
    line: int
    description: str
    applicability: str


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
    applied: list[AppliedFix] = field(default_factory=list)
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
    """The safe fixes of the file's findings, and the unsafe ones with settings.unsafe_fixes."""
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
        edits = _propose(text, path, settings, wanted, settings.unsafe_fixes)
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


def _propose(text: str, path: str, settings: Settings, wanted: set,
             unsafe: bool) -> Optional[tuple[cst.Module, list[AppliedFix]]]:
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        return None
    parents = parent_map(module)
    accepted: list[Edit] = []
    applied: list[AppliedFix] = []
    for (code, line, column), outcome in _outcomes(module, path, settings, {c for c, _, _ in wanted}):
        if (code, line, column) not in wanted or not isinstance(outcome, Edit) \
                 or (outcome.unsafe_because is not None and not unsafe):
            continue
        if any(_overlap(outcome, other, parents) for other in accepted):
            continue
        accepted.append(outcome)
        applied.append(AppliedFix(code, line, outcome.description, outcome.applicability))
    if not accepted:
        return None
    return module.visit(_Apply(accepted)), applied


def _outcomes(module: cst.Module, path: str, settings: Settings,
              codes: Iterable[str]) -> Iterator[tuple[tuple[str, int, int], Union[Edit, Refusal]]]:
    """((code, line, column), what its fixer answers) for each finding of ``codes`` in ``module``
    (the rules' own findings: the caller keeps those the engine reported)."""
    ctx = FileContext(path, module, build_model(module), settings.extra_jit_functions)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    for code in sorted(set(codes)):
        for violation in ALL_RULES[code]().check(ctx):
            start = positions[violation.node].start
            yield (code, start.line, start.column + 1), FIXERS[code](ctx, violation)


def _overlap(a: Edit, b: Edit, parents: dict) -> bool:
    for x in a.regions:
        for y in b.regions:
            if any(n is y for n in (x, *ancestors(parents, x))) or any(n is x for n in (y, *ancestors(parents, y))):
                return True
    return False


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


def fix_offers(diagnostics: Sequence, settings: Settings, sources: Optional[dict] = None,
               cache: Optional[ResultCache] = None) -> dict:
    """Diagnostic -> FixOffer: the fix ``--fix`` (safe) or ``--unsafe-fixes`` would apply now,
    or why there is none (for ``[*]`` markers, the summary, ``--show-fixes`` and JSON).  Only
    files with findings of fixable codes are parsed again (``sources``: path -> bytes for a
    file not on disk, stdin), and with a ``cache`` only when their bytes or those findings
    changed."""
    offers = {d: NO_FIX for d in diagnostics if d.code not in FIXERS}
    by_path: dict[str, set] = {}
    for d in diagnostics:
        if d.code in FIXERS:
            by_path.setdefault(d.path, set()).add(_where(d))
    found_in: dict[str, dict] = {}
    for path, wanted in by_path.items():
        try:
            data = (sources or {}).get(path) or read_source(path)
            key = cache.key(path, data, repr(("offers", sorted(wanted))).encode()) if cache else None
            entry = cache.get(key) if cache and key else None
            if not (isinstance(entry, tuple) and len(entry) == 2 and entry[0] == "offers"):
                found = _notebook_offers(data, path, wanted, settings) if _is_notebook(path) \
                    else _offers_in(data, path, wanted, settings)
                entry = ("offers", tuple((where, offer.applicability, offer.message, offer.unsafe_because)
                                         for where, offer in sorted(found.items())))
                if cache and key:
                    cache.put(key, entry)
            found = {where: FixOffer(*offer) for where, *offer in entry[1]}
        except Exception:  # the offer is a hint: a file that fails here is simply not marked
            found = {}
        found_in[path] = found
    offers.update((d, found_in[d.path].get(_where(d), LOST)) for d in diagnostics if d.code in FIXERS)
    return offers


def _where(d) -> tuple[str, int, int]:
    """A finding's key among a file's fix outcomes; notebooks by the line of the joined
    source (the column inside a dedented cell differs from the joined one)."""
    return (d.code, d.absolute_line, 0) if d.cell is not None else (d.code, d.line, d.column)


def _is_notebook(path: str) -> bool:
    from jitlint.notebook import is_notebook

    return is_notebook(path)


def _offer(outcome: Union[Edit, Refusal]) -> FixOffer:
    if isinstance(outcome, Refusal):
        return FixOffer(None, f"refused: {outcome.reason}")
    return FixOffer(outcome.applicability, outcome.description, outcome.unsafe_because)


def _offers_in(data: bytes, path: str, wanted: set, settings: Settings) -> dict:
    """(code, line, column) of ``wanted`` -> FixOffer, from the fixers on a fresh tree."""
    module = cst.parse_module(decode_source(data))
    return {key: _offer(outcome) for key, outcome in _outcomes(module, path, settings,
                                                               {code for code, _, _ in wanted})
            if key in wanted}


def _notebook_offers(data: bytes, path: str, wanted: set, settings: Settings) -> dict:
    """A notebook is fixed as a whole (fixes/_notebook.py), its findings matched by the line of
    the joined source: a fix is offered if fixing the notebook applies it; otherwise the
    fixer's reason, or that the change would not fit in one plain cell."""
    from dataclasses import replace

    from jitlint.fixes._notebook import fix_notebook
    from jitlint.notebook import read_notebook

    applied = {(f.code, f.line) for unsafe in (False, True)
               for f in fix_notebook(data, path, replace(settings, unsafe_fixes=unsafe)).applied}
    notebook = read_notebook(data)
    lines = {(code, line) for code, line, _ in wanted}
    answers: dict = {}
    if notebook is not None and notebook.source:
        module = cst.parse_module(notebook.source)
        for (code, line, _), outcome in _outcomes(module, path, settings, {c for c, _ in lines}):
            if (code, line) in lines:
                answers.setdefault((code, line), _offer(outcome))
    found = {}
    for code, line in lines:
        offer = answers.get((code, line), LOST)
        if offer.applicability is not None and (code, line) not in applied:
            offer = FixOffer(None, "refused: the fix would change a notebook cell that is not "
                                   "plain Python, or several cells")
        found[(code, line, 0)] = offer
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
