"""docs/reliability.md names the test behind each guarantee: every test it names exists."""

from __future__ import annotations

import re

from helpers import ROOT


def test_every_test_named_in_reliability_md_exists():
    doc = (ROOT / "docs" / "reliability.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", doc))
    defined = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        defined.update(re.findall(r"^def (test_\w+)\(", path.read_text(encoding="utf-8"), re.M))
    assert len(named) > 30
    assert not named - defined, sorted(named - defined)
