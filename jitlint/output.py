"""Output formats.  ``json`` / ``json-lines`` are a contract other tools parse: keep the keys
(``JSON_KEYS``) stable.  Every format is a function ``diagnostics -> text``; the CLI offers the
keys of ``FORMATS`` as ``--output-format`` choices.  What the fixes can do for each finding
(``fixes.FixOffer``, as ``offers``: diagnostic -> offer) shows as ``[*]`` markers and the summary
in the text formats, and as the ``fix`` key of the JSON formats.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Collection, Mapping, Optional, Sequence
from urllib.parse import quote

from jitlint import __version__
from jitlint.engine import Diagnostic
from jitlint.source import decode_source, read_source
from jitlint.rules import ALL_RULES

if TYPE_CHECKING:
    from jitlint.fixes import FixOffer

JSON_KEYS = ("path", "line", "column", "end_line", "end_column", "code", "name", "message",
             "severity", "fix")

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://github.com/jitlint/jitlint"


def location(d: Diagnostic) -> str:
    """``path:line:col``; in a notebook ``nb.ipynb:cell 5:line 2:col`` (line in the cell)."""
    if d.cell is not None:
        return f"{d.path}:cell {d.cell}:line {d.line}:{d.column}"
    return f"{d.path}:{d.line}:{d.column}"


def format_concise(diagnostics: Sequence[Diagnostic], fixable: Collection[Diagnostic] = ()) -> str:
    """``path:line:col: CODE message``; ``CODE [*]`` when ``--fix`` fixes it (as ruff)."""
    return "".join(f"{location(d)}: {d.code}{FIX_MARK if d in fixable else ''} {d.message}\n"
                   for d in diagnostics)


FIX_MARK = " [*]"
TEXT_FORMATS = ("concise", "full")  # for people: fixable markers and a summary line


def fixable(offers: Mapping[Diagnostic, "FixOffer"], unsafe_fixes: bool) -> set[Diagnostic]:
    """The findings ``--fix`` fixes now (unsafe fixes too with ``unsafe_fixes``)."""
    return {d for d, offer in offers.items() if offer.applies(unsafe_fixes)}


def summary_line(diagnostics: Sequence[Diagnostic], offers: Mapping[Diagnostic, "FixOffer"],
                 unsafe_fixes: bool = False) -> str:
    """ruff's closing line, for the text formats: how many fixes ``--fix`` applies and how
    many unsafe ones it leaves hidden."""
    if not diagnostics:
        return "All checks passed!\n"
    n = len(diagnostics)
    fixes = len(fixable(offers, unsafe_fixes))
    hidden = 0 if unsafe_fixes else sum(offer.applicability == "unsafe" for offer in offers.values())
    notes = [f"{fixes} fixable with `jitlint check --fix`"] if fixes else []
    if hidden:
        notes.append(f"{hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with the "
                     f"`--unsafe-fixes` option")
    details = " ({})".format("; ".join(notes)) if notes else ""
    return f"Found {n} finding{'s' if n != 1 else ''}{details}.\n"


def format_fix_reasons(diagnostics: Sequence[Diagnostic], offers: Mapping[Diagnostic, "FixOffer"],
                       unsafe_fixes: bool = False) -> str:
    """``--show-fixes``: for each finding (those left after ``--fix``), why it has no fix
    applied: the fix ``--fix`` would apply, an unsafe fix left hidden, the fixer's reason to
    refuse, or no fix for its rule."""
    lines = []
    for d in diagnostics:
        offer = offers.get(d)
        if offer is None:
            continue
        if offer.applies(unsafe_fixes):
            why = f"fix available with `--fix`: {offer.message}"
        elif offer.applicability == "unsafe":
            why = f"unsafe fix hidden (`--unsafe-fixes` enables it): {offer.message}"
            if offer.unsafe_because:
                why += f"; unsafe because {offer.unsafe_because}"
        else:
            why = offer.message
        lines.append(f"  {location(d)}: {d.code} {why}\n")
    return f"Not fixed ({len(lines)}):\n{''.join(lines)}" if lines else ""


def write_statistics(diagnostics: Sequence[Diagnostic], output_format: str) -> None:
    """The per-rule counts: instead of the findings in a text format (as ruff), on stderr for
    the machine-readable ones (their stdout must parse)."""
    stream = sys.stdout if output_format in TEXT_FORMATS else sys.stderr
    stream.write(format_statistics(diagnostics))


# ---------------------------------------------------------------------------- full
def use_color(stream=None) -> bool:
    """Colour only on a terminal; ``NO_COLOR`` (no-color.org) wins, ``FORCE_COLOR`` forces."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    stream = stream if stream is not None else sys.stdout
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


_STYLES = {"bold": "1", "red": "31", "yellow": "33", "blue": "34", "cyan": "36"}


def _style(text: str, color: bool, *styles: str) -> str:
    if not color or not text:
        return text
    codes = ";".join(_STYLES[s] for s in styles)
    return f"\x1b[{codes}m{text}\x1b[0m"


def format_full(diagnostics: Sequence[Diagnostic], color: Optional[bool] = None,
                fixable: Collection[Diagnostic] = ()) -> str:
    """Each finding with its source line and a caret under the span, as ruff's ``full``."""
    color = use_color() if color is None else color
    sources: dict[str, Optional[list[str]]] = {}
    out = []
    for d in diagnostics:
        key = d.path if d.cell is None else f"{d.path}\0{d.cell}"
        if key not in sources:
            sources[key] = _source_lines(d.path) if d.cell is None else _cell_lines(d.path, d.cell)
        lines = sources[key]
        level = "red" if d.severity == "error" else "yellow"
        where = f":cell {d.cell}:line {d.line}:{d.column}" if d.cell is not None else \
            f":{d.line}:{d.column}"
        out.append(f"{_style(d.path, color, 'bold')}{where}: "
                   f"{_style(d.code, color, 'bold', level)}{FIX_MARK if d in fixable else ''} "
                   f"{d.message} "
                   f"{_style(f'[{d.name}]', color, 'cyan')}\n")
        if lines is not None and 1 <= d.line <= len(lines):
            out.append(_code_frame(d, lines, color))
        out.append("\n")
    return "".join(out)


def _source_lines(path: str) -> Optional[list[str]]:
    try:
        return decode_source(read_source(path)).splitlines()
    except Exception:  # unreadable or undecodable: the finding is shown without a frame
        return None


def _cell_lines(path: str, cell: int) -> Optional[list[str]]:
    """A notebook cell's own lines (the frame shows the line numbers of the cell)."""
    from jitlint.notebook import cell_lines

    try:
        return cell_lines(read_source(path), cell)
    except Exception:
        return None


def _code_frame(d: Diagnostic, lines: list[str], color: bool) -> str:
    raw = lines[d.line - 1]
    start = max(d.column - 1, 0)
    end = d.end_column - 1 if d.end_line == d.line else len(raw)
    end = max(min(end, len(raw)), start + 1)
    # Tabs are expanded so that the caret stays under the span.
    prefix = raw[:start].expandtabs(4)
    span = raw[start:end].expandtabs(4)
    text = raw.expandtabs(4)
    width = len(str(d.line))
    gutter = _style(f"{' ' * width} |", color, "blue")
    numbered = _style(f"{d.line} |", color, "blue")
    caret = _style("^" * max(len(span), 1), color, "bold", "red" if d.severity == "error" else "yellow")
    return (f"{gutter}\n{numbered} {text}\n{gutter} {' ' * len(prefix)}{caret}\n")


# ---------------------------------------------------------------------------- json
def json_object(d: Diagnostic, offers: Optional[Mapping[Diagnostic, "FixOffer"]]) -> dict:
    """The JSON contract's object for one finding; ``fix`` as ruff's: the applicability and
    description of its fix, or null."""
    offer = (offers or {}).get(d)
    fix = {"applicability": offer.applicability, "message": offer.message} \
        if offer is not None and offer.applicability is not None else None
    return {**d.to_dict(), "fix": fix}


def format_json(diagnostics: Sequence[Diagnostic],
                offers: Optional[Mapping[Diagnostic, "FixOffer"]] = None) -> str:
    return json.dumps([json_object(d, offers) for d in diagnostics], indent=2) + "\n"


def format_json_lines(diagnostics: Sequence[Diagnostic],
                      offers: Optional[Mapping[Diagnostic, "FixOffer"]] = None) -> str:
    return "".join(json.dumps(json_object(d, offers)) + "\n" for d in diagnostics)


JSON_FORMATS = ("json", "json-lines")  # they carry each finding's fix


# ---------------------------------------------------------------------------- github
def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(diagnostics: Sequence[Diagnostic]) -> str:
    """GitHub Actions workflow commands: an annotation on the changed line of the PR."""
    out = []
    for d in diagnostics:
        command = "error" if d.severity == "error" else "warning"
        if d.cell is not None:
            # A line of the .ipynb's JSON is no place to show it: a file-level annotation
            # that says where in the notebook.
            out.append(f"::{command} file={_escape_property(d.path)},"
                       f"title={_escape_property(d.code)}::"
                       f"{_escape_data(f'cell {d.cell}, line {d.line}, column {d.column}: {d.message}')}\n")
            continue
        out.append(f"::{command} file={_escape_property(d.path)},line={d.line},col={d.column},"
                   f"endLine={d.end_line},endColumn={d.end_column},"
                   f"title={_escape_property(d.code)}::{_escape_data(d.message)}\n")
    return "".join(out)


# ---------------------------------------------------------------------------- sarif
def _sarif_uri(path: str) -> str:
    """A path relative to the working directory (the repository root in CI), else file://."""
    absolute = Path(os.path.abspath(path))
    try:
        return quote(absolute.relative_to(Path.cwd().resolve()).as_posix())
    except ValueError:
        return absolute.as_uri()


def _first_paragraph(markdown: str, heading: str) -> Optional[str]:
    lines = markdown.splitlines()
    try:
        start = lines.index(heading) + 1
    except ValueError:
        return None
    paragraph = []
    for line in lines[start:]:
        if line.startswith("#"):
            break
        if not line.strip():
            if paragraph:
                break
            continue
        paragraph.append(line.strip())
    return " ".join(paragraph) or None


def sarif_rules() -> list[dict]:
    rules = []
    for code, rule in ALL_RULES.items():
        doc = rule.doc()
        rules.append({
            "id": code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": _first_paragraph(doc, "## What it does") or rule.summary},
            "help": {"text": doc, "markdown": doc},
            "defaultConfiguration": {"level": "error" if rule.severity == "error" else "warning"},
            "properties": {"tags": ["jax", "performance" if rule.severity != "error" else "correctness"],
                           "precision": "high",
                           "problem.severity": "error" if rule.severity == "error" else "warning"},
        })
    return rules


def format_sarif(diagnostics: Sequence[Diagnostic]) -> str:
    """SARIF 2.1.0, as GitHub code scanning accepts it (one run, every rule described)."""
    rules = sarif_rules()
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = []
    for d in diagnostics:
        result = {
            "ruleId": d.code,
            "level": "error" if d.severity == "error" else "warning",
            "message": {"text": d.message},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": _sarif_uri(d.path)},
                    "region": {"startLine": d.line, "startColumn": d.column,
                               "endLine": d.end_line, "endColumn": d.end_column},
                },
            }],
        }
        if d.cell is not None and d.absolute_line is not None:
            # Lines of the notebook's code cells joined in order; the cell position as properties.
            result["locations"][0]["physicalLocation"]["region"].update(
                startLine=d.absolute_line, endLine=d.absolute_line + d.end_line - d.line)
            result["properties"] = {"cell": d.cell, "cellLine": d.line, "cellEndLine": d.end_line}
        if d.group is not None:  # an opt-in group's finding (rule.GROUPS)
            result.setdefault("properties", {})["group"] = d.group
        if d.code in index:
            result["ruleIndex"] = index[d.code]
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {"name": "jitlint", "version": __version__,
                                "semanticVersion": __version__,
                                "informationUri": INFORMATION_URI, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(log, indent=2) + "\n"


FORMATS: dict[str, Callable[[Sequence[Diagnostic]], str]] = {
    "concise": format_concise,
    "full": format_full,
    "json": format_json,
    "json-lines": format_json_lines,
    "github": format_github,
    "sarif": format_sarif,
}


def format_statistics(diagnostics: Sequence[Diagnostic]) -> str:
    counts = Counter((d.code, d.name) for d in diagnostics)
    width = max((len(str(n)) for n in counts.values()), default=1)
    return "".join(f"{n:>{width}}\t{code}\t{name}\n" for (code, name), n in sorted(counts.items()))
