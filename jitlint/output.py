"""Output formats.  ``json`` is a contract other tools parse: keep its keys stable."""

from __future__ import annotations

import json
from collections import Counter
from typing import Callable, Sequence

from jitlint.engine import Diagnostic

JSON_KEYS = ("path", "line", "column", "end_line", "end_column", "code", "name", "message",
             "severity")


def format_concise(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}\n" for d in diagnostics)


def format_json(diagnostics: Sequence[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in diagnostics], indent=2) + "\n"


FORMATS: dict[str, Callable[[Sequence[Diagnostic]], str]] = {
    "concise": format_concise,
    "json": format_json,
}


def format_statistics(diagnostics: Sequence[Diagnostic]) -> str:
    counts = Counter((d.code, d.name) for d in diagnostics)
    width = max((len(str(n)) for n in counts.values()), default=1)
    return "".join(f"{n:>{width}}\t{code}\t{name}\n" for (code, name), n in sorted(counts.items()))
