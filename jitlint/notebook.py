"""Jupyter notebooks (``.ipynb``): one Python source from the code cells, and back.

A notebook is read with the standard library's ``json`` and nbformat's field names (v4:
``cells[].cell_type``/``source``; v3: ``worksheets[].cells[].input``), so linting notebooks
needs no dependency and imports neither IPython nor JAX.  The code cells are joined in order
into one program, so that a function jitted in cell 3 and called in a loop in cell 5 is seen
as one module would be.  IPython syntax is neutralised line for line, keeping every line
where it was:

* line magics, shell escapes and help (``%timeit f(x)``, ``!pip install``, ``x = !ls``,
  ``f?``, ``/f x``) at the start of a logical line become ``pass`` (or ``x = get_ipython()``
  for an assignment), their continuation lines blank;
* a cell magic whose body is Python run in the kernel (``%%time``, ``%%timeit``,
  ``%%capture``, ``%%prun``, ``%%debug``) loses its first line only; any other cell magic
  (``%%bash``, ``%%writefile``, ...) blanks the whole cell;
* automagic lines (``pip install x``, ``timeit -n 5 f(x)``: a known line magic's name at the
  start of a logical line that is not Python by itself) become ``pass`` like ``%magics``;
* a cell that is still not Python (a syntax error) is blanked and reported as JIT000 at its
  own position: the other cells are linted.

``Notebook.locate`` turns a diagnostic of the joined source back into the notebook's terms:
``cell`` (the 1-based position of the cell among all the notebook's cells, markdown
included, as ``cells[]`` lists them), ``line``/``end_line`` within the cell, and the
absolute line of the joined source in ``absolute_line``.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import warnings
from dataclasses import dataclass, field
from typing import Optional, Sequence

NOTEBOOK_SUFFIX = ".ipynb"

# Cell magics whose body is Python executed in the user's namespace (IPython's own).
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})

# IPython's own line magics (and the usual extensions'), which automagic (on by default) runs
# without the ``%`` when a line starts with the name: ``pip install x``, ``timeit f(x)``.
AUTOMAGICS = frozenset({
    "aimport", "alias", "alias_magic", "autoawait", "autocall", "automagic", "autoreload",
    "autosave", "bookmark", "cat", "cd", "clear", "colors", "conda", "config", "debug", "dhist",
    "dirs", "doctest_mode", "ed", "edit", "env", "gui", "hist", "history", "killbgscripts",
    "ldir", "less", "load", "load_ext", "loadpy", "logoff", "logon", "logstart", "logstate",
    "logstop", "lprun", "ls", "lsmagic", "macro", "magic", "man", "matplotlib", "memit",
    "mamba", "micromamba", "mkdir", "more", "mprun", "mv", "notebook", "page", "pastebin",
    "pdb", "pdef", "pdoc", "pfile", "pinfo", "pinfo2", "pip", "popd", "pprint", "precision",
    "prun", "psearch", "psource", "pushd", "pwd", "pycat", "pylab", "quickref", "recall",
    "rehashx", "reload_ext", "rerun", "reset", "reset_selective", "rm", "rmdir", "run", "save",
    "sc", "set_env", "store", "sx", "system", "tb", "tensorboard", "time", "timeit", "unalias",
    "unload_ext", "who", "who_ls", "whos", "xdel", "xmode",
})
_AUTOMAGIC_LINE = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?:\s|$)")
_ASSIGN_MAGIC = re.compile(r"^(?P<targets>[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*=\s*[%!]")
_ESCAPES = ("%", "!", "?", "/", ",", ";")
_CELL_MAGIC = re.compile(r"^%%(?P<name>\w+)")


def is_notebook(path: str) -> bool:
    return path.lower().endswith(NOTEBOOK_SUFFIX)


class NotebookError(Exception):
    """The file is not a notebook jitlint can read; ``line``/``column`` are in the file."""

    def __init__(self, reason: str, line: int = 1, column: int = 1) -> None:
        super().__init__(reason)
        self.reason, self.line, self.column = reason, line, column


@dataclass(frozen=True)
class CellError:
    """A code cell that is not Python: reported as JIT000 there, the rest is linted."""

    cell: int
    line: int
    column: int
    reason: str


@dataclass
class Notebook:
    source: str  # the code cells joined, IPython syntax neutralised
    # absolute line (1-based; index 0 unused) -> (cell, line in cell, columns removed by dedent)
    line_map: list[tuple[int, int, int]] = field(default_factory=lambda: [(0, 0, 0)])
    cells: dict[int, list[str]] = field(default_factory=dict)  # cell -> its original lines
    errors: list[CellError] = field(default_factory=list)
    # Cells tagged ``raises-exception`` (Jupyter Book, nbsphinx, nbval): they show an error on
    # purpose, so findings that say "this raises" are the lesson there, not a bug.
    raising_cells: set[int] = field(default_factory=set)

    def keeps(self, diagnostic) -> bool:
        """False for a finding of an error that a cell tagged ``raises-exception`` shows: the
        finding is in that cell, or its evidence is (``def f`` in one cell, ``jax.jit(f)(x)``
        in the tagged cell that shows the error)."""
        if diagnostic.severity != "error":
            return True
        return not (diagnostic.cell in self.raising_cells or diagnostic.related and all(
            related.cell in self.raising_cells for related in diagnostic.related))

    def locate(self, diagnostic):
        """The diagnostic with ``cell``, cell-relative lines and ``absolute_line`` set (and its
        related places in their cells' terms)."""
        if not 1 <= diagnostic.line < len(self.line_map):
            return diagnostic
        return dataclasses.replace(self._in_cell(diagnostic), absolute_line=diagnostic.line,
                                   related=tuple(map(self._in_cell, diagnostic.related)))

    def _in_cell(self, span):
        """A span of the joined source (a Diagnostic, an engine.Related) in its cell's terms."""
        if not 1 <= span.line < len(self.line_map):
            return span
        cell, line, offset = self.line_map[span.line]
        end = span.end_line if span.end_line < len(self.line_map) else span.line
        end_cell, end_line, end_offset = self.line_map[end]
        if end_cell != cell:  # cannot happen for a node; keep the span inside the cell
            end_line, end_offset = line, offset
        return dataclasses.replace(span, line=line, column=span.column + offset, end_line=end_line,
                                   end_column=span.end_column + end_offset, cell=cell)

    def cell_of(self, line: int) -> Optional[int]:
        """The cell a line of the joined source is in (None out of range)."""
        return self.line_map[line][0] if 1 <= line < len(self.line_map) else None

    def line_in_cell(self, line: int) -> int:
        return self.line_map[line][1] if 1 <= line < len(self.line_map) else line

    def absolute_line(self, cell: int, line: int) -> Optional[int]:
        for absolute, (c, l, _) in enumerate(self.line_map):
            if c == cell and l == line:
                return absolute
        return None


# ---------------------------------------------------------------------------- reading
def read_notebook(data: bytes) -> Optional[Notebook]:
    """The notebook's code as one source; None for a notebook in another language (R, Julia).

    Raises NotebookError when the bytes are not an nbformat notebook."""
    if not data.strip():
        raise NotebookError("empty file, not a notebook")
    try:
        document = json.loads(data)
    except UnicodeDecodeError as exc:
        raise NotebookError(f"not valid UTF-8 (byte {data[exc.start]:#04x}); notebooks are "
                            f"UTF-8 JSON") from exc
    except json.JSONDecodeError as exc:
        raise NotebookError(f"not a notebook: invalid JSON: {exc.msg}", exc.lineno, exc.colno) from exc
    except RecursionError as exc:
        raise NotebookError("not a notebook: JSON nested too deeply") from exc
    except ValueError as exc:
        raise NotebookError(f"not a notebook: {exc}") from exc
    if not isinstance(document, dict):
        raise NotebookError(f"not a notebook: the JSON is a {type(document).__name__}, not an object")
    if not _is_python(document.get("metadata")):
        return None
    notebook = build_notebook(_code_cells(document))
    notebook.raising_cells = _raising_cells(document)
    return notebook


RAISES_TAG = "raises-exception"


def _raising_cells(document: dict) -> set[int]:
    """Numbers of the cells tagged ``raises-exception`` (nbformat 4 cell metadata)."""
    cells = document.get("cells")
    if not isinstance(cells, list):
        return set()
    found = set()
    for number, cell in enumerate(cells, start=1):
        metadata = cell.get("metadata") if isinstance(cell, dict) else None
        tags = metadata.get("tags") if isinstance(metadata, dict) else None
        if isinstance(tags, list) and RAISES_TAG in tags:
            found.add(number)
    return found


def _is_python(metadata) -> bool:
    if not isinstance(metadata, dict):
        return True
    for key, field_name in (("language_info", "name"), ("kernelspec", "language")):
        value = metadata.get(key)
        if isinstance(value, dict) and isinstance(value.get(field_name), str):
            return value[field_name].strip().lower() in ("python", "python3", "ipython", "")
    return True


def _code_cells(document: dict) -> list[tuple[int, str]]:
    """(cell number, source) of each code cell, from nbformat 4 or 3."""
    version = document.get("nbformat")
    if not isinstance(version, int) or isinstance(version, bool):
        raise NotebookError("not a notebook: no integer 'nbformat' version field")
    if version == 4:
        cells, source_key = document.get("cells"), "source"
        if not isinstance(cells, list):
            raise NotebookError("not a notebook: 'cells' is missing or not a list")
    elif version == 3:
        worksheets = document.get("worksheets")
        if not isinstance(worksheets, list) or not all(isinstance(w, dict) for w in worksheets):
            raise NotebookError("not a notebook: nbformat 3 'worksheets' is missing or not a list")
        cells, source_key = [c for w in worksheets for c in (w.get("cells") or [])], "input"
    else:
        raise NotebookError(f"nbformat {version} is not supported (only 3 and 4)")
    code = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise NotebookError(f"not a notebook: cell {number} has no 'cell_type'")
        if cell["cell_type"] != "code":
            continue
        source = cell.get(source_key, "")
        if isinstance(source, list) and all(isinstance(part, str) for part in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise NotebookError(f"not a notebook: cell {number}'s '{source_key}' is not text")
        code.append((number, source))
    return code


# ---------------------------------------------------------------------------- joining
def build_notebook(cells: Sequence[tuple[int, str]]) -> Notebook:
    notebook = Notebook("")
    parts = []
    for number, source in cells:
        original = split_lines(source)
        notebook.cells[number] = original
        lines, offsets = _neutralise(original)
        error = _syntax_error("\n".join(lines) + "\n")
        if error is not None:
            line, column, reason = error
            line = min(max(line, 1), max(len(original), 1))
            notebook.errors.append(CellError(number, line, column + offsets[line - 1]
                                             if line <= len(offsets) else column, reason))
            lines = [""] * len(original)
        for index, text in enumerate(lines):
            parts.append(text)
            notebook.line_map.append((number, index + 1, offsets[index]))
    notebook.source = "\n".join(parts) + "\n" if parts else ""
    return notebook


def split_lines(source: str) -> list[str]:
    """Lines as Python counts them (``str.splitlines`` also splits at form feeds etc.)."""
    lines = re.split(r"\r\n|\r|\n", source)
    return lines[:-1] if lines and lines[-1] == "" else lines


def _syntax_error(text: str) -> Optional[tuple[int, int, str]]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as exc:
        return exc.lineno or 1, exc.offset or 1, f"syntax error: {exc.msg}"
    except (ValueError, RecursionError, MemoryError) as exc:
        return 1, 1, f"cannot parse: {exc}"
    return None


def _neutralise(lines: list[str]) -> tuple[list[str], list[int]]:
    """The cell's lines with IPython syntax replaced, and per line the columns removed (a
    cell whose first line is indented is dedented, as IPython does)."""
    lines = list(lines)
    offsets = [0] * len(lines)
    if not lines:
        return lines, offsets
    indent = lines[0][: len(lines[0]) - len(lines[0].lstrip(" \t"))]
    if indent and lines[0].strip():
        for i, line in enumerate(lines):
            if line.startswith(indent):
                lines[i], offsets[i] = line[len(indent):], len(indent)
    if _syntax_error("\n".join(lines) + "\n") is None:
        return lines, offsets  # plain Python: never touched
    magic = _CELL_MAGIC.match(lines[0])
    if magic:
        if magic["name"] not in PYTHON_CELL_MAGICS:
            return [""] * len(lines), offsets
        lines = ["", *lines[1:]]
    out = list(lines)
    for start, end in _logical_lines(lines):
        head = lines[start]
        stripped = head.lstrip()
        lead = head[: len(head) - len(stripped)]
        assign = _ASSIGN_MAGIC.match(stripped)
        if assign:
            replacement = f"{lead}{assign['targets']} = get_ipython()"
        elif (stripped.startswith(_ESCAPES) or _has_help_mark(lines[start:end])
              or _is_automagic(stripped, lines[start + 1:end])):
            replacement = f"{lead}pass"
        else:
            continue
        out[start] = replacement
        for i in range(start + 1, end):
            out[i] = ""
    return out, offsets


def _is_automagic(head: str, rest: list[str]) -> bool:
    """``timeit -n 5 f(x)``: a known magic's name at the start of a logical line that is not
    Python by itself, as IPython's automagic runs it (a name the cell binds is Python)."""
    match = _AUTOMAGIC_LINE.match(head)
    if match is None or match["name"] not in AUTOMAGICS:
        return False
    return _syntax_error("\n".join([head, *rest]) + "\n") is not None


def _has_help_mark(lines: list[str]) -> bool:
    """``obj?`` / ``obj??``: a question mark outside strings and comments (never Python)."""
    return any("?" in code for code in _code_parts("\n".join(lines)))


def _code_parts(text: str) -> list[str]:
    """The text outside string literals and comments (a small scanner, enough for ``?``)."""
    parts, i, n, start = [], 0, len(text), 0
    while i < n:
        ch = text[i]
        if ch == "#":
            parts.append(text[start:i])
            i = text.find("\n", i)
            if i < 0:
                return parts
            start = i
        elif ch in "'\"":
            parts.append(text[start:i])
            i = _skip_string(text, i)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _skip_string(text: str, i: int) -> int:
    """Index after the string literal that starts at ``text[i]`` (a quote)."""
    quote = text[i] * 3 if text.startswith(text[i] * 3, i) else text[i]
    j = i + len(quote)
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text.startswith(quote, j):
            return j + len(quote)
        if len(quote) == 1 and text[j] == "\n":
            return j  # unterminated: Python will say so
        j += 1
    return j


def _logical_lines(lines: list[str]) -> list[tuple[int, int]]:
    """[start, end) physical-line ranges of the logical lines: brackets, strings spanning
    lines and backslash continuations keep a logical line going."""
    ranges = []
    depth, quote, start = 0, None, 0
    for index, line in enumerate(lines):
        i, n, continued = 0, len(line), False
        while i < n:
            ch = line[i]
            if quote is not None:
                if ch == "\\":
                    i += 2
                    continue
                if line.startswith(quote, i):
                    i += len(quote)
                    quote = None
                    continue
                i += 1
                continue
            if ch == "#":
                break
            if ch in "'\"":
                quote = ch * 3 if line.startswith(ch * 3, i) else ch
                i += len(quote)
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth = max(depth - 1, 0)
            elif ch == "\\" and line[i + 1:].strip() == "":
                continued = True
            i += 1
        if quote is not None and len(quote) == 1 and not line.endswith("\\"):
            quote = None  # an unterminated one-line string ends with its line
        if depth == 0 and quote is None and not continued:
            ranges.append((start, index + 1))
            start = index + 1
    if start < len(lines):
        ranges.append((start, len(lines)))
    return ranges


def notebook_source(data: bytes) -> str:
    """The joined code of a notebook, or "" when it cannot be read (for cheap text scans)."""
    try:
        notebook = read_notebook(data)
    except NotebookError:
        return ""
    return notebook.source if notebook is not None else ""


def cell_lines(data: bytes, cell: int) -> Optional[list[str]]:
    """The original lines of one code cell (for output formats that show source)."""
    notebook = read_notebook(data)
    return notebook.cells.get(cell) if notebook is not None else None
