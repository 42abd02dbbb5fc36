"""The engine keeps one finding per rule and line (the others become its related locations),
except for rules whose findings each carry their own --fix edit (Rule.separate_findings)."""

from __future__ import annotations

import textwrap

from jitlint.config import Settings
from jitlint.engine import lint_source
from jitlint.fixes import fixable_codes
from jitlint.rules import ALL_RULES

TWO_CONVERSIONS_ON_ONE_LINE = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp


    @jax.jit
    def gate(p):
        return jnp.where(float(p[0]) > float(p[1]), p, -p)


    print(gate(jnp.ones(2)))
    """).encode()

TWO_LAMBDAS_ON_ONE_LINE = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    for x in jnp.arange(3.0):
        print(jax.jit(lambda v: v + 1)(x), jax.jit(lambda v: v * 2)(x))
    """).encode()


def test_two_findings_of_a_rule_on_one_line_are_one_with_the_other_related():
    [found] = lint_source(TWO_CONVERSIONS_ON_ONE_LINE, "gate.py", Settings(select=("JIT802",))).diagnostics
    assert (found.line, found.code) == (7, "JIT802")
    assert "float(p[0])" in found.message
    [also] = [r for r in found.related if r.message.startswith("also on this line:")]
    assert (also.line, "float(p[1])" in also.message) == (7, True)


def test_findings_with_their_own_fix_stay_apart():
    found = lint_source(TWO_LAMBDAS_ON_ONE_LINE, "loop.py", Settings(select=("JIT101",))).diagnostics
    assert [(d.line, d.code) for d in found] == [(5, "JIT101"), (5, "JIT101")]


def test_every_fixable_rule_keeps_its_findings_apart():
    assert {code for code in fixable_codes() if not ALL_RULES[code].separate_findings} == set()
