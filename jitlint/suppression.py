"""``# noqa`` handling: per line (all codes or a list) and ``# jitlint: noqa`` for a file."""

from __future__ import annotations

import re
from typing import Optional

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
