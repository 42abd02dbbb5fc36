"""Reading Python source files: regular files only, decoded as Python decodes them.

Below the engine, the index, the fixes and the output alike: everything that reads a user's file
goes through ``read_source`` and ``decode_source``, so a FIFO named ``x.py`` or a mis-encoded file
is handled the same way everywhere.
"""

from __future__ import annotations

import io
import os
import stat
import tokenize


class SourceError(Exception):
    """The file cannot be turned into text that Python would accept."""

    def __init__(self, reason: str, line: int = 1, column: int = 1) -> None:
        super().__init__(reason)
        self.reason, self.line, self.column = reason, line, column


def decode_source(data: bytes) -> str:
    """Bytes -> text as Python reads it: BOM, PEP 263 coding cookie, else UTF-8."""
    if b"\0" in data:
        raise SourceError("binary file (contains NUL bytes), not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if "invalid or missing encoding declaration" in str(exc.msg):
            encoding = "utf-8"  # no cookie, and the first lines are not UTF-8: say where
        else:
            raise SourceError(f"bad encoding declaration: {exc.msg}", exc.lineno or 1) from exc
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(f"not valid {encoding} text (byte {data[exc.start]:#04x}); save it as "
                          f"UTF-8 or declare its encoding with a PEP 263 coding comment",
                          line, column) from exc
    except LookupError as exc:
        raise SourceError(f"unknown encoding {encoding!r}") from exc
    return text[1:] if text.startswith("\ufeff") else text


def read_source(path: str) -> bytes:
    """A file's bytes; OSError if it cannot be read.  Only regular files are read: a named
    pipe, socket or device called ``*.py`` (or a link to one) would block or never end."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)  # non-blocking: opening a FIFO with no writer returns at once
    with open(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(0, "not a regular file (a named pipe, socket or device)")
        return handle.read()
