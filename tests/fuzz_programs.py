"""Hypothesis strategies for JAX-flavoured random Python programs (tests/test_fuzz.py).

hypothesmith's programs are valid Python but almost never say ``jit``, so they exercise the
parser and the prefilter, not the rules.  These programs are built from the constructs the
rules look at (jit, pmap, filter_jit, pjit, ``partial(jax.jit, static_argnums=...)``,
decorators, lambdas, loops, classes, ``global``/``nonlocal``, imports under aliases, odd
parameter lists and odd keyword values) combined at random, so that every analysis meets
shapes no fixture has.  Some combinations are not valid Python (``return`` at top level,
``nonlocal`` without an enclosing def); the tests sort them out with ``ast.parse``.
"""

from __future__ import annotations

from hypothesis import strategies as st

NAMES = ["f", "g", "x", "y", "step", "fn", "params", "i", "n", "cfg", "self", "state", "jax",
         "jit", "partial", "jnp", "np", "eqx", "batch", "k"]
JITS = ["jax.jit", "jit", "jax.pmap", "eqx.filter_jit", "pjit", "nn.jit", "J", "jx.jit"]
IMPORTS = ["import jax", "import jax.numpy as jnp", "import numpy as np", "from jax import jit",
           "from jax import jit as J", "import functools", "from functools import partial",
           "import equinox as eqx", "from jax.experimental.pjit import pjit",
           "import flax.linen as nn", "from jax import numpy as jnp, lax", "import jax as jx",
           "from . import helpers", "from .mod import step as f", "from pkg.steps import *"]
JIT_KEYWORDS = ["static_argnums", "static_argnames", "donate_argnums", "donate_argnames",
                "inline", "in_axes"]
ATOMS = ["'a'", "None", "True", "1.5", "...", "jnp.ones(3)", "x.shape[0]", "f'{x}'", "()", "[]",
         "{}", "(1, 'n')", "-1", "10**9", "'x y'"]

name = st.sampled_from(NAMES)
jit_name = st.sampled_from(JITS)
partial_name = st.sampled_from(["partial", "functools.partial"])


def _call(callee: str, args: list[str]) -> str:
    """Positional arguments first, then keywords, then ``**``: always valid syntax."""
    starred = [a for a in args if a.startswith("**")]
    keywords = [a for a in args if "=" in a.split("(")[0] and not a.startswith("*")]
    positional = [a for a in args if a not in starred and a not in keywords]
    return f"{callee}({', '.join(positional + keywords + starred)})"


def _expressions(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    keyword = st.tuples(st.sampled_from(JIT_KEYWORDS + ["a", "x"]), children).map(
        lambda t: f"{t[0]}={t[1]}")
    args = st.lists(st.one_of(children, children.map(lambda e: "*" + e),
                              children.map(lambda e: "**" + e), keyword), max_size=4)
    return st.one_of(
        st.tuples(st.one_of(children, jit_name), args).map(lambda t: _call(*t)),
        st.tuples(jit_name, children, args).map(lambda t: _call(t[0], [t[1], *t[2]])),
        st.tuples(partial_name, jit_name, args).map(lambda t: _call(t[0], [t[1], *t[2]])),
        st.tuples(children, name).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(children, children).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.lists(children, max_size=3).map(lambda xs: "(" + "".join(x + ", " for x in xs) + ")"),
        st.lists(children, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(children, min_size=1, max_size=3).map(lambda xs: "{" + ", ".join(xs) + "}"),
        st.tuples(children, children).map(lambda t: "{" + f"{t[0]}: {t[1]}" + "}"),
        st.tuples(name, children).map(lambda t: f"(lambda {t[0]}: {t[1]})"),
        st.tuples(children, st.sampled_from(["+", "*", "<", "==", "and", "if x else", "is"]),
                  children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(children, name, children).map(lambda t: f"[{t[0]} for {t[1]} in {t[2]}]"),
        children.map(lambda e: f"(not {e})"),
        st.tuples(name, children).map(lambda t: f"({t[0]} := {t[1]})"),
    )


expression = st.recursive(
    st.one_of(name, st.integers(-3, 5).map(str), st.sampled_from(ATOMS)),
    _expressions, max_leaves=12)

_keywords = st.lists(st.tuples(st.sampled_from(JIT_KEYWORDS), expression), max_size=2)
decorator = st.one_of(
    jit_name,
    st.tuples(partial_name, jit_name, _keywords).map(
        lambda t: f"{t[0]}({t[1]}" + "".join(f", {k}={v}" for k, v in t[2]) + ")"),
    st.tuples(jit_name, st.lists(st.tuples(st.sampled_from(JIT_KEYWORDS), expression),
                                 min_size=1, max_size=2)).map(
        lambda t: f"{t[0]}(" + ", ".join(f"{k}={v}" for k, v in t[1]) + ")"),
    expression,
    st.sampled_from(["staticmethod", "property", "classmethod", "functools.wraps(f)"]),
)


def _parameters(names: list[str], star: bool, kwargs: bool, marker: str) -> str:
    parts = list(names)
    if marker == "/" and parts:
        parts.append("/")
    if star:
        parts.append("*args")
    elif marker == "*":
        parts += ["*", "opt=1"]
    if kwargs:
        parts.append("**kwargs")
    return ", ".join(parts)


parameters = st.tuples(
    st.lists(st.sampled_from(["self", "x", "y", "n", "params", "state", "k", "cfg"]), unique=True,
             max_size=4),
    st.booleans(), st.booleans(), st.sampled_from(["", "*", "/"]),
).map(lambda t: _parameters(*t))


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _compound(children: st.SearchStrategy[list[str]]) -> st.SearchStrategy[list[str]]:
    body = st.lists(children, min_size=1, max_size=4).map(lambda bs: [l for b in bs for l in b])
    return st.one_of(
        st.tuples(st.lists(decorator, max_size=2), name, parameters, body, st.booleans()).map(
            lambda t: [f"@{d}" for d in t[0]]
            + [f"{'async ' if t[4] else ''}def {t[1]}({t[2]}):"] + _indent(t[3])),
        st.tuples(name, st.lists(expression, max_size=2), body).map(
            lambda t: [f"class {t[0].capitalize()}({', '.join(t[1])}):"] + _indent(t[2])),
        st.tuples(name, expression, body).map(lambda t: [f"for {t[0]} in {t[1]}:"] + _indent(t[2])),
        st.tuples(expression, body).map(lambda t: [f"while {t[0]}:"] + _indent(t[1])),
        st.tuples(expression, body, st.one_of(st.none(), body)).map(
            lambda t: [f"if {t[0]}:"] + _indent(t[1])
            + ([] if t[2] is None else ["else:"] + _indent(t[2]))),
        st.tuples(expression, name, body).map(lambda t: [f"with {t[0]} as {t[1]}:"] + _indent(t[2])),
        st.tuples(body, body).map(
            lambda t: ["try:"] + _indent(t[0]) + ["except Exception:"] + _indent(t[1])),
    )


simple_statement = st.one_of(
    st.tuples(name, expression).map(lambda t: [f"{t[0]} = {t[1]}"]),
    st.tuples(name, name, expression).map(lambda t: [f"{t[0]}.{t[1]} = {t[2]}"]),
    st.tuples(name, expression).map(lambda t: [f"{t[0]} += {t[1]}"]),
    st.tuples(name, name, expression).map(lambda t: [f"{t[0]}, *{t[1]} = {t[2]}"]),
    expression.map(lambda e: [e]),
    expression.map(lambda e: [f"return {e}"]),
    name.map(lambda n: [f"global {n}"]),
    name.map(lambda n: [f"nonlocal {n}"]),
    st.sampled_from(IMPORTS).map(lambda i: [i]),
    st.tuples(name, jit_name, name, expression, st.lists(expression, max_size=2)).map(
        lambda t: [f"{t[0]} = {t[1]}(lambda {t[2]}: {t[3]})({', '.join(t[4])})"]),
    st.tuples(name, jit_name, name, st.sampled_from(JIT_KEYWORDS), expression).map(
        lambda t: [f"{t[0]} = {t[1]}({t[2]}, {t[3]}={t[4]})"]),
    st.tuples(name, st.lists(expression, max_size=3)).map(lambda t: [_call(t[0], t[1])]),
    st.sampled_from([["pass"], ["break"], ["continue"], ["yield x"], ["del x"], ["print(x)"],
                     ["raise ValueError(x)"], ["assert x, 'm'"]]),
)

statement = st.recursive(simple_statement, _compound, max_leaves=10)

#: A program: a few imports (jax and partial always), then statements.  Often invalid.
program = st.tuples(
    st.lists(st.sampled_from(IMPORTS), min_size=1, max_size=6),
    st.lists(statement, min_size=1, max_size=8),
).map(lambda t: "\n".join(["import jax", "from functools import partial", *t[0],
                           *(line for s in t[1] for line in s)]) + "\n")
