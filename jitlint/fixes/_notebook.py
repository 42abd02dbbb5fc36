"""``--fix`` / ``--diff`` on notebooks, cell by cell.

The notebook is fixed as it is linted: its code cells joined into one program (jitlint/notebook.py),
so that a fix sees the definitions of earlier cells.  The fixed program is then split back: each
changed region of lines must lie inside one code cell, and that cell must be plain Python (no
magic or shell line that the joined program replaced), else nothing in the notebook is changed.
Only the ``source`` of the changed cells is rewritten; outputs, execution counts, metadata and
every other cell stay as they were, and the JSON is written back in the notebook's own layout
(nbformat's: one-space indent, keys in the original order, non-ASCII kept) when it had it.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Optional

from jitlint.config import Settings
from jitlint.notebook import NotebookError, read_notebook, split_lines


@dataclass
class CellChange:
    cell: int  # 1-based position among all the notebook's cells, as findings name it
    before: list[str]
    after: list[str]


@dataclass
class NotebookFix:
    path: str
    original: bytes
    fixed: bytes
    applied: list[tuple[str, int, str]] = field(default_factory=list)
    cells: list[CellChange] = field(default_factory=list)
    not_written: Optional[str] = None

    @property
    def changed(self) -> bool:
        return self.fixed != self.original

    def diff(self) -> str:
        """A unified diff per changed cell, named ``path:cell N`` (the JSON is not the code)."""
        out = []
        for change in self.cells:
            name = f"{self.path}:cell {change.cell}"
            out.extend(line + "\n" for line in difflib.unified_diff(
                change.before, change.after, name, name, lineterm=""))
        return "".join(out)


def fix_notebook(data: bytes, path: str, settings: Settings) -> NotebookFix:
    from jitlint.fixes import fix_source  # the package imports this module's users lazily

    result = NotebookFix(path, data, data)
    try:
        notebook = read_notebook(data)
        document = json.loads(data)
    except (NotebookError, ValueError):
        return result  # the lint reports it; never touch what we cannot read
    if notebook is None or not notebook.source or document.get("nbformat") != 4:
        return result
    fixed = fix_source(notebook.source.encode("utf-8"), path, settings)
    if not fixed.changed:
        return result
    before = split_lines(notebook.source)
    after = split_lines(fixed.fixed.decode("utf-8"))
    changes = _cell_changes(notebook, before, after)
    if changes is None:
        return result
    cells = document["cells"]
    for change in changes:
        cell = cells[change.cell - 1]
        text = "\n".join(change.after)
        original = cell["source"]
        original_text = "".join(original) if isinstance(original, list) else original
        if original_text.endswith("\n"):
            text += "\n"
        cell["source"] = text.splitlines(keepends=True) if isinstance(original, list) else text
    result.fixed = _dump(document, data)
    result.applied = fixed.applied
    result.cells = changes
    return result


def _cell_changes(notebook, before: list[str], after: list[str]) -> Optional[list[CellChange]]:
    """The new lines of each changed cell, or None when a change is not inside one plain cell."""
    line_map = notebook.line_map  # absolute line (1-based) -> (cell, line in cell, offset)
    edits: dict[int, list[tuple[int, int, list[str]]]] = {}
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        touched = {line_map[line][0] for line in range(i1 + 1, i2 + 1)}
        if not touched:  # an insertion: it goes before line i1 + 1 (after the last line at the end)
            touched = {line_map[min(i1 + 1, len(line_map) - 1)][0]}
        if len(touched) != 1:
            return None
        edits.setdefault(touched.pop(), []).append((i1, i2, after[j1:j2]))
    changes = []
    for cell, cell_edits in sorted(edits.items()):
        absolute = [line for line in range(1, len(line_map)) if line_map[line][0] == cell]
        original = notebook.cells[cell]
        if [before[line - 1] for line in absolute] != original \
                or any(line_map[line][2] for line in absolute):
            return None  # a magic line was replaced, or the cell was dedented: not plain Python
        first = absolute[0] - 1  # index in ``before`` of the cell's first line
        lines = list(original)
        for i1, i2, new in sorted(cell_edits, reverse=True):
            lines[i1 - first:i2 - first] = new
        changes.append(CellChange(cell, original, lines))
    return changes


def _dump(document: dict, original: bytes) -> bytes:
    """The document as JSON in the layout of ``original`` when one of nbformat's reproduces it."""
    reread = json.loads(original)
    for sort_keys in (False, True):
        for indent in (1, 2, 4):
            text = json.dumps(reread, indent=indent, sort_keys=sort_keys, ensure_ascii=False)
            for ending in ("\n", ""):
                if (text + ending).encode("utf-8") == original:
                    return (json.dumps(document, indent=indent, sort_keys=sort_keys,
                                       ensure_ascii=False) + ending).encode("utf-8")
    return (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
