"""Every rule's VALID examples are silent and its INVALID examples fire (Fixit-style)."""

from __future__ import annotations

import inspect

import pytest

from jitlint.config import Settings
from jitlint.engine import lint_source
from jitlint.rules import ALL_RULES

# JIT000 is reported by the engine, runtime-only rules (JIT900) by --confirm: no static examples.
RULES = [rule for code, rule in ALL_RULES.items()
         if code != "JIT000" and not getattr(rule, "runtime_only", False)]


def _codes(source: str, code: str) -> list[str]:
    result = lint_source(inspect.cleandoc(source).encode(), "example.py", Settings(select=(code,)))
    assert result.internal_error is None
    return [d.code for d in result.diagnostics]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_is_documented(rule):
    assert rule.INVALID and rule.VALID, "every rule needs VALID and INVALID examples"
    doc = rule.doc()
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert section in doc, f"{rule.code} doc lacks {section}"
    assert rule.name == rule.name.lower() and " " not in rule.name


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_invalid_examples_fire(rule):
    for example in rule.INVALID:
        assert rule.code in _codes(example, rule.code), example


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_valid_examples_are_silent(rule):
    for example in rule.VALID:
        assert _codes(example, rule.code) == [], example
