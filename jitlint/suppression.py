"""``# noqa`` handling: per line (all codes or a list) and ``# jitlint: noqa`` for a file."""

from __future__ import annotations

import re
from typing import Iterable, Iterator, Optional

# flake8's grammar: "# noqa", "# noqa: JIT101", "# noqa:JIT101,JIT102", "# NOQA: JIT101 JIT102"
NOQA_LINE = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
CODE_SPLIT = re.compile(r"[,\s]+")
NOQA_FILE = re.compile(r"#\s*jitlint\s*:\s*noqa\b(?!\s*:)", re.IGNORECASE)


def file_is_suppressed(text: str) -> bool:
    return any(NOQA_FILE.match(line.strip()) for line in text.splitlines() if "jitlint" in line)


def line_suppresses(line: str, code: str) -> bool:
    codes = noqa_codes(line)
    if codes is None:
        return False
    return not codes or any(code.startswith(c) for c in codes)


def noqa_codes(line: str) -> Optional[list[str]]:
    """None: no noqa; []: a bare noqa (everything); else the listed codes."""
    if "noqa" not in line.lower():
        return None
    match = NOQA_LINE.search(line)
    if match is None:
        return None
    if match.group("codes") is None:
        return []
    return [c.upper() for c in CODE_SPLIT.split(match.group("codes")) if c]


def unknown_noqa_codes(text: str, known: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(line, code) for each jitlint-looking code in a ``# noqa: ...`` that selects no rule:
    a typo there silently suppresses nothing.  Other tools' codes (E501, B008) are theirs."""
    if "noqa" not in text.lower():
        return
    known = tuple(known)
    for number, line in enumerate(text.splitlines(), 1):
        for code in noqa_codes(line) or ():
            if code.startswith("JIT") and not any(k.startswith(code) for k in known):
                yield number, code
