"""jitlint/reparse.py: a parse that reuses unchanged statements must give the analyses what a
whole parse gives (the same code nodes, the same text, the same findings at the same places)."""

from __future__ import annotations

import ast

import libcst as cst
import pytest

from helpers import ROOT
from jitlint.config import Settings
from jitlint.reparse import StatementCache, _chunks
from jitlint.walk import children
from test_positions import TRICKY

FIXTURES = sorted((ROOT / "fixtures").rglob("*.py"))
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def code_nodes(module: cst.Module) -> list[tuple[str, str]]:
    """The meaningful nodes in walk order (what analyses read), each as its type and, for a
    leaf (a name, a number, a string, an operator), its text."""
    found, stack = [], list(reversed(module.body))
    while stack:
        node = stack.pop()
        value = getattr(node, "value", None)
        found.append((type(node).__name__, value if isinstance(value, str) else ""))
        stack.extend(reversed(children(node)))
    return found


def texts() -> list[str]:
    import textwrap

    return ([textwrap.dedent(t) if t.startswith(" ") else t for t in TRICKY.values()]
            + [path.read_text(encoding="utf-8") for path in FIXTURES + EXAMPLES])


def test_the_chunks_are_the_text():
    for text in texts():
        assert "".join(_chunks(text, ast.parse(text))) == text


def test_reused_statements_make_the_module_a_whole_parse_makes():
    cache = StatementCache()
    for text in texts():
        for edited in (text, text.replace("\n", "\n\n", 1), text + "\n# the end\n"):
            tree = ast.parse(edited)
            module = cache.parse(edited, tree)
            assert module.code == edited
            assert code_nodes(module) == code_nodes(cst.parse_module(edited))


def test_the_same_statement_twice_gets_two_nodes():
    text = "import jax\nx = 1\nx = 1\n"
    module = StatementCache().parse(text, ast.parse(text))
    assert module.body[1] is not module.body[2]


def test_a_chunk_libcst_rejects_falls_back_to_the_whole_parse(monkeypatch):
    text = "import jax\n\nx = jax.jit(f)\n"
    cache = StatementCache()

    def rejects(source, config=None):
        if source != text:  # a chunk
            raise cst.ParserSyntaxError("no", lines=["x"], raw_line=1, raw_column=0)
        return original(source)

    original = cst.parse_module
    monkeypatch.setattr(cst, "parse_module", rejects)
    assert cache.parse(text, ast.parse(text)).code == text


@pytest.mark.parametrize("path", FIXTURES[::7] + EXAMPLES, ids=lambda p: p.name)
def test_findings_with_reused_statements_are_the_same(path, monkeypatch):
    import jitlint.engine as engine

    data = path.read_bytes()
    plain = engine.lint_source(data, str(path), Settings()).diagnostics
    monkeypatch.setattr(engine, "_STATEMENTS", StatementCache())
    first = engine.lint_source(data, str(path), Settings()).diagnostics
    again = engine.lint_source(data, str(path), Settings()).diagnostics  # every chunk reused
    assert first == plain and again == plain
