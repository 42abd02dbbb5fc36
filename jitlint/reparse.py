"""A libcst parse that reuses the top-level statements of earlier parses (the language server).

An editor sends the whole buffer after each keystroke, and libcst parses a 1,000-line file in
100-300 ms: most of a lint.  ``StatementCache.parse`` cuts the text into chunks, one per
top-level statement (with the comments and blank lines above it), at the lines where Python's
own ast (the engine has it already) starts and ends each statement.  A chunk seen before is
not parsed again; only the edited ones are.  The chunks' statements make one module.

It is the module a whole parse gives, up to which node owns a comment or blank line between
two statements (a statement's ``leading_lines`` or the module's header): the code nodes are the
same, which is all the analyses read (jitlint/walk.py skips comments and whitespace), and the
module generates exactly the text (each chunk does: libcst round-trips; and the chunks must
agree on the default indent and newline that their nodes leave implicit).  Where that cannot
be ensured the whole text is parsed as usual.
"""

from __future__ import annotations

import ast
import re
from collections import OrderedDict
from typing import Optional

import libcst as cst

_LINE = re.compile(r".*?(?:\r\n|\r|\n)|.+\Z", re.S)  # lines as Python counts them, with endings


class StatementCache:
    """Parsed chunks by their text, the ``limit`` most recently used."""

    def __init__(self, limit: int = 20_000) -> None:
        self.limit = limit
        self.chunks: OrderedDict[str, cst.Module] = OrderedDict()

    def parse(self, text: str, tree: ast.Module) -> cst.Module:
        """``cst.parse_module(text)``'s code nodes, reusing chunks parsed before.  ``tree`` is
        Python's ast of ``text``.  Raises what ``cst.parse_module`` raises."""
        try:
            module = self._assemble(text, tree)
        except (cst.ParserSyntaxError, RecursionError):
            module = None  # the whole parse says so, at the right line
        return module if module is not None else cst.parse_module(text)

    def _assemble(self, text: str, tree: ast.Module) -> Optional[cst.Module]:
        parts = _chunks(text, tree)
        if len(parts) < 2:
            return None
        body: list[cst.BaseStatement] = []
        header: tuple = ()
        used: set[int] = set()
        indents, newlines = set(), set()
        last = None
        for i, part in enumerate(parts):
            chunk = self._chunk(part)
            if id(chunk) in used:  # the same text twice: nodes must not appear twice
                chunk = cst.parse_module(part)
            used.add(id(chunk))
            if chunk.footer and i < len(parts) - 1:
                return None
            # Each chunk's parse detects its own default indent and newline, which the nodes
            # then leave implicit: they must be the module's, where the chunk has any.
            if any(isinstance(getattr(statement, "body", None), cst.IndentedBlock)
                   for statement in chunk.body):
                indents.add(chunk.default_indent)
            if part.endswith(("\n", "\r")):
                newlines.add(chunk.default_newline)
            statements = list(chunk.body)
            if chunk.header:
                if i == 0:
                    header = tuple(chunk.header)
                elif statements:
                    statements[0] = statements[0].with_changes(
                        leading_lines=[*chunk.header, *statements[0].leading_lines])
                else:
                    return None
            body.extend(statements)
            last = chunk
        if len(indents) > 1 or len(newlines) > 1:
            return None
        return cst.Module(body=body, header=header, footer=last.footer, encoding="utf-8",
                          default_indent=indents.pop() if indents else last.default_indent,
                          default_newline=newlines.pop() if newlines else last.default_newline,
                          has_trailing_newline=last.has_trailing_newline)

    def _chunk(self, part: str) -> cst.Module:
        chunk = self.chunks.get(part)
        if chunk is None:
            chunk = self.chunks[part] = cst.parse_module(part)
            while len(self.chunks) > self.limit:
                self.chunks.popitem(last=False)
        else:
            self.chunks.move_to_end(part)
        return chunk


def _chunks(text: str, tree: ast.Module) -> list[str]:
    """The text cut after the last line of each top-level statement (statements sharing a line
    stay together); the text after the last one belongs to the last chunk."""
    lines = _LINE.findall(text)
    ends: list[int] = []
    end = 0
    for node in tree.body:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        if first > end > 0:
            ends.append(end)
        end = max(end, node.end_lineno or node.lineno)
    ends.append(len(lines))
    parts, start = [], 0
    for end in ends:
        parts.append("".join(lines[start:end]))
        start = end
    return parts
