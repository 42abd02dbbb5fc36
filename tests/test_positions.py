"""engine._positions generates only the top-level statements that hold findings: the positions
must be libcst's PositionProvider's for the whole module, exactly."""

from __future__ import annotations

import ast
import random
import textwrap

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from helpers import ROOT
from jitlint.engine import _positions
from jitlint.semantic import build_model
from jitlint.walk import children, iter_nodes

TRICKY = {
    "decorator in parentheses on its own lines": """\
        import jax

        @(
            jax.jit
        )
        def f(x):
            return x
    """,
    "comments between decorators": """\
        import functools
        # a comment

        @functools.partial(
            jax.jit,  # why
            static_argnums=0,
        )
        # between
        @other
        def f(x):
            return x
    """,
    "semicolons and a form feed": "import jax; y = 1; z = jax.jit(lambda v: v)\n\x0c\nfor i in range(3): w = jax.jit(lambda v: v)(i)\n",
    "carriage returns": "import jax\r\n\r\nfor i in range(3):\r\n    jax.jit(lambda v: v)(i)\r\n",
    "multi-line strings and continuations": '''\
        """doc
        string"""
        x = """a
        b""" + \\
            "c"
        class A:
            def f(self):
                return jax.jit(lambda v: v)
    ''',
    "no trailing newline": "import jax\nfor i in range(3):\n    jax.jit(lambda v: v)(i)",
    "header comments and blank lines at the end": "# header\n\n\nimport jax\n\n\nx = jax.jit(f)\n\n\n# the end\n",
}


def check(text: str, sample: int = 0) -> None:
    tree = ast.parse(text)
    module = cst.parse_module(text)
    model = build_model(module)
    nodes, stack = [], list(module.body)
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(children(node))
    if sample and len(nodes) > sample:
        nodes = random.Random(0).sample(nodes, sample)
    whole = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found = _positions(module, model, nodes, text, tree)
    assert {id(n): found[n] for n in nodes} == {id(n): whole[n] for n in nodes}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_tricky_layouts(name):
    text = TRICKY[name]
    check(textwrap.dedent(text) if text.startswith(" ") else text)


def test_every_fixture():
    for path in sorted((ROOT / "fixtures").rglob("*.py")):
        check(path.read_text(encoding="utf-8"), sample=40)


def test_annotated_assignments_made_plain_keep_every_position():
    """The analysis reads ``x: T = v`` as ``x = v`` (jitlint/annotated.py): each name, call and
    literal keeps its line and column, and a class body's annotated fields stay as written."""
    from jitlint.annotated import without_variable_annotations

    source = textwrap.dedent("""\
        import jax
        total: float = 0.0
        def train(state, batches):
            step: "Callable" = jax.jit(update); n : int=3
            for batch in batches:
                state: TrainState = step(state, batch)
            shape: tuple[int,
                         int] = (1, 2)
            return state
        class Config:
            lr: float = 1e-3
            def bump(self):
                self.lr: float = self.lr * 2
    """)
    original = cst.parse_module(source)
    plain = without_variable_annotations(original, source)

    def positions(module):
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        found = wrapper.resolve(PositionProvider)
        return sorted((p.start.line, p.start.column, p.end.line, p.end.column, cst.Module([]).code_for_node(n))
                      for n, p in found.items() if isinstance(n, (cst.Name, cst.Call, cst.Float, cst.Integer)))

    kept = positions(plain)  # every node but the annotations taken out, where it was
    assert set(kept) <= set(positions(original)) and len(kept) == len(positions(original)) - 4
    kinds = [type(small).__name__ for line in iter_nodes(plain) if isinstance(line, cst.SimpleStatementLine)
             for small in line.body]
    # total, step, n, state: plain; shape (an annotation over two lines) and the field lr: as written;
    # self.lr in a method: plain
    assert kinds.count("AnnAssign") == 2 and kinds.count("Assign") == 5

