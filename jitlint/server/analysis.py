"""What the language server asks of the engine, in jitlint's own terms (no protocol here):
lint an editor's buffer, its safe fixes, a ``# noqa`` for one line, a rule's explanation.

A buffer is linted as ``jitlint check - --stdin-filename PATH`` lints it: the settings of the
nearest pyproject.toml (read again for every lint, so an edited config applies at once), the
project index of the modules on disk (summaries from the cache in ``.jitlint_cache/``), and
``force-exclude`` honoured.  A notebook's cells are linted as the CLI lints the ``.ipynb``.
"""

from __future__ import annotations

import difflib
import io
import json
import tokenize
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from jitlint.cache import CACHE_DIR_NAME, ResultCache
from jitlint.config import ConfigError, Settings, load_settings
from jitlint.engine import Diagnostic, iter_python_files, lint_in_project
from jitlint.notebook import is_notebook, split_lines
from jitlint.rules import get_rule
from jitlint.source import SourceError, decode_source
from jitlint.suppression import NOQA_LINE, noqa_codes


@dataclass
class Linted:
    """One document's findings, or why there are none."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    settings: Optional[Settings] = None
    config_error: Optional[str] = None  # the nearest pyproject.toml is invalid
    internal_error: Optional[str] = None  # a jitlint bug met on this document
    notes: tuple[str, ...] = ()  # warnings the CLI prints on stderr (unknown noqa codes, ...)


@dataclass(frozen=True)
class NotebookCell:
    """A cell of an open notebook, as the editor holds it."""

    code: bool  # a code cell (else markdown)
    source: str
    metadata: Optional[dict] = None


def buffer_bytes(text: str) -> bytes:
    """The buffer as its file's bytes: in the encoding a PEP 263 cookie declares (so that the
    engine decodes it to the same text), else UTF-8."""
    data = text.encode("utf-8")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        if encoding not in ("utf-8", "utf-8-sig"):
            return text.encode(encoding)
    except (SyntaxError, LookupError, UnicodeEncodeError):
        pass  # the engine reports a bad cookie as it reports it for the file on disk
    return data


def notebook_bytes(cells: Sequence[NotebookCell], metadata: Optional[dict] = None) -> bytes:
    """An open notebook as the ``.ipynb`` (nbformat 4) it would be saved as: cell N of the
    findings is the editor's cell N."""
    document = {
        "nbformat": 4, "nbformat_minor": 5,
        "metadata": metadata if isinstance(metadata, dict) else {},
        "cells": [{"cell_type": "code" if cell.code else "markdown", "source": cell.source,
                   "metadata": cell.metadata if isinstance(cell.metadata, dict) else {}}
                  for cell in cells],
    }
    return json.dumps(document).encode("utf-8")


def result_cache(settings: Settings) -> ResultCache:
    """The CLI's default cache (next to the config), shared with ``jitlint check``."""
    return ResultCache(settings.root / CACHE_DIR_NAME, f"{settings.fingerprint()} prefilter=True")


def lint_buffer(data: bytes, path: str) -> Linted:
    """Lint ``data`` as the file ``path`` (``.py``/``.pyi``, or ``.ipynb`` JSON).  Never raises:
    a bug in jitlint is this document's ``internal_error``."""
    try:
        settings = load_settings(None, Path(path))
    except ConfigError as exc:
        return Linted(path, config_error=str(exc))
    try:
        if settings.force_exclude and not list(iter_python_files([path], settings)):
            return Linted(path, settings=settings)
        result = lint_in_project(data, path, settings, result_cache(settings))
    except Exception:  # outside the engine's per-file isolation (the index, the cache)
        return Linted(path, settings=settings, internal_error=traceback.format_exc().rstrip())
    if result.internal_error:
        return Linted(path, settings=settings, internal_error=result.internal_error,
                      notes=result.notes)
    return Linted(path, result.diagnostics, settings, notes=result.notes)


# ---------------------------------------------------------------------------- fixes
@dataclass
class BufferFix:
    """The safe fixes of a buffer: the new text of each changed part (``None``: the document;
    else a notebook's cell number) and what was fixed, as (code, line, description)."""

    texts: dict[Optional[int], str]
    applied: list[tuple[str, int, str]]


def fix_buffer(data: bytes, path: str, settings: Settings,
               cells: Sequence[NotebookCell] = ()) -> Optional[BufferFix]:
    """What ``jitlint check --fix`` would write for this buffer; None when nothing changes."""
    from jitlint.fixes import fix_source
    from jitlint.fixes._notebook import fix_notebook

    if is_notebook(path):
        fixed_notebook = fix_notebook(data, path, settings)
        if not fixed_notebook.changed:
            return None
        texts: dict[Optional[int], str] = {}
        for change in fixed_notebook.cells:
            ending = "\n" if cells[change.cell - 1].source.endswith("\n") else ""
            texts[change.cell] = "\n".join(change.after) + ending
        return BufferFix(texts, fixed_notebook.applied)
    fixed = fix_source(data, path, settings)
    if not fixed.changed:
        return None
    try:
        return BufferFix({None: decode_source(fixed.fixed)}, fixed.applied)
    except SourceError:
        return None


def line_edits(old: str, new: str) -> list[tuple[int, int, int, str]]:
    """``old`` -> ``new`` as replacements of whole lines: (first line, last line + 1, the
    column where the replaced text ends on the line after it (0) or on the last line when
    the text ends there without a newline, the new text); lines 0-based."""
    before = old.splitlines(keepends=True)
    after = new.splitlines(keepends=True)
    edits = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        end_line, end_column = i2, 0
        if i2 == len(before) and before and not before[-1].endswith(("\n", "\r")):
            end_line, end_column = i2 - 1, len(before[-1])  # no line after the last one
        edits.append((i1, end_line, end_column, "".join(after[j1:j2])))
    return edits


# ---------------------------------------------------------------------------- noqa
def with_noqa(line: str, code: str) -> Optional[str]:
    """``line`` (without its line ending) with ``code`` in its ``# noqa``: added to an existing
    list, else a new ``  # noqa: CODE`` comment.  None when a bare ``# noqa`` is there."""
    codes = noqa_codes(line)
    if codes is None:
        return f"{line.rstrip()}  # noqa: {code}"
    if not codes:
        return None
    match = NOQA_LINE.search(line)
    listed = codes if code in codes else [*codes, code]
    return f"{line[:match.start()]}# noqa: {', '.join(listed)}{line[match.end():]}"


def comment_fits(text: str, line: int) -> bool:
    """Whether a comment can end ``line`` (1-based) of ``text``: not inside a string that goes
    on to the next line, not after a backslash continuation."""
    lines = split_lines(text)
    if not 1 <= line <= len(lines) or lines[line - 1].rstrip().endswith("\\"):
        return False
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] > line:
                break
            if token.start[0] <= line < token.end[0]:
                return False
    except (tokenize.TokenError, SyntaxError):
        pass  # not Python to the end (a notebook cell's magic): the line itself is
    return True


def rule_explanation(code: str) -> Optional[str]:
    """The rule's documentation, as ``jitlint rule CODE`` prints it (Markdown)."""
    rule = get_rule(code)
    return rule.doc() if rule is not None else None
