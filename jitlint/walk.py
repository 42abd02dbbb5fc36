"""A fast, read-only traversal of libcst trees.

``CSTNode.visit`` rebuilds every node it passes (``_visit_and_replace_children``) and dispatches
through several layers per node; for analyses that never change the tree that is most of the
cost (about 4x the walk below on a 9,500-line file).  ``Walker`` reads the dataclass fields
directly, skips pure-syntax children (whitespace, commas, parentheses, operators' tokens) and
dispatches ``visit_<NodeType>`` / ``leave_<NodeType>`` methods, with libcst's convention that a
visit method returning False skips the node's children.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterator, Optional

import libcst as cst

# Children that carry no meaning for analysis: whitespace, comments and punctuation.
_SYNTAX_ONLY = (
    cst.BaseParenthesizableWhitespace, cst.TrailingWhitespace, cst.EmptyLine, cst.Newline,
    cst.Comment, cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket,
    cst.LeftCurlyBrace, cst.RightCurlyBrace, cst.Comma, cst.Semicolon, cst.Colon, cst.Dot,
    cst.AssignEqual, cst.ImportStar, cst.Asynchronous,
)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(node_type: type) -> tuple[str, ...]:
    names = _FIELDS.get(node_type)
    if names is None:
        names = _FIELDS[node_type] = tuple(
            f.name for f in dataclasses.fields(node_type)
            if not (f.name.startswith("whitespace") or f.name in ("lpar", "rpar", "leading_lines",
                                                                  "lines_after_decorators", "header",
                                                                  "footer", "comma", "semicolon"))
        )
    return names


# type -> 0: not a node, 1: a meaningful node, 2: a syntax-only node.  isinstance against
# libcst's abstract classes is slow (ABC checks), so classify each concrete type once.
_KIND: dict[type, int] = {}


def _kind(value_type: type) -> int:
    kind = _KIND.get(value_type)
    if kind is None:
        if not issubclass(value_type, cst.CSTNode):
            kind = 0
        else:
            kind = 2 if issubclass(value_type, _SYNTAX_ONLY) else 1
        _KIND[value_type] = kind
    return kind


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The meaningful child nodes of ``node``, in field order."""
    found = []
    for name in _fields(type(node)):
        value = getattr(node, name)
        value_type = type(value)
        if value_type is tuple or value_type is list:
            for item in value:
                if _kind(type(item)) == 1:
                    found.append(item)
        elif _kind(value_type) == 1:
            found.append(value)
    return found


def iter_nodes(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every meaningful node under ``node`` (itself included), depth first."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


def own_nodes(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes under ``node`` (a function's body), without those of the functions, lambdas
    and classes it defines (those nodes themselves are included)."""
    stack = list(children(node))
    while stack:
        current = stack.pop()
        yield current
        if not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            stack.extend(children(current))


def own_nodes_in_order(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``own_nodes`` in source order (depth first), for what depends on which statement comes
    last (the value a step writes last into a key)."""
    stack = list(reversed(children(node)))
    while stack:
        current = stack.pop()
        yield current
        if not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            stack.extend(reversed(children(current)))


def parent_map(root: cst.CSTNode) -> dict[int, cst.CSTNode]:
    """id(node) -> its parent, for the nodes under ``root``."""
    parents: dict[int, cst.CSTNode] = {}
    stack: list[cst.CSTNode] = [root]
    while stack:
        node = stack.pop()
        for child in children(node):
            parents[id(child)] = node
            stack.append(child)
    return parents


def ancestors(parents: dict[int, cst.CSTNode], node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes that hold ``node``, innermost first (``parents``: from ``parent_map``)."""
    current = parents.get(id(node))
    while current is not None:
        yield current
        current = parents.get(id(current))


class Walker:
    """Subclass and define ``visit_<NodeType>(node)`` (return False to skip the children) and
    ``leave_<NodeType>(node)``, or ``on_visit(node)`` / ``on_leave(node)`` for every node (as
    libcst's CSTVisitor); call ``walk(node)``."""

    _dispatch: dict[type, tuple[Optional[Callable], Optional[Callable]]]

    _generic = False

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._dispatch = {}
        cls._generic = cls.on_visit is not Walker.on_visit or cls.on_leave is not Walker.on_leave

    def _handlers(self, node_type: type) -> tuple[Optional[Callable], Optional[Callable]]:
        handlers = self._dispatch.get(node_type)
        if handlers is None:
            name = node_type.__name__
            handlers = (getattr(type(self), f"visit_{name}", None),
                        getattr(type(self), f"leave_{name}", None))
            self._dispatch[node_type] = handlers
        return handlers

    def walk(self, node: cst.CSTNode) -> None:
        """Depth first with an explicit stack, not recursion: generated code nests deeply
        (CPython's pydoc_data/topics.py: implicitly concatenated strings ~1,000 levels down)."""
        generic = self._generic
        stack: list[tuple[cst.CSTNode, bool]] = [(node, False)]
        while stack:
            current, leaving = stack.pop()
            visit, leave = self._handlers(type(current))
            if leaving:
                if leave is not None:
                    leave(self, current)
                if generic:
                    self.on_leave(current)
                continue
            if generic and self.on_visit(current) is False:
                self.on_leave(current)
                continue
            stack.append((current, True))
            if visit is None or visit(self, current) is not False:
                stack.extend((child, False) for child in reversed(children(current)))

    def on_visit(self, node: cst.CSTNode) -> Optional[bool]:
        return True

    def on_leave(self, node: cst.CSTNode) -> None:
        pass


def is_docstring(statement: cst.CSTNode) -> bool:
    """A statement that is only a string: a docstring."""
    return isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Expr) \
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def source_text(node: cst.CSTNode, limit: int = 40) -> str:
    """How messages quote code: ``node``'s source on one line, cut to ``limit`` characters."""
    text = " ".join(cst.Module([]).code_for_node(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
