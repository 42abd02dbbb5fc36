"""Rule docs come from one source: the rule's own docstring and examples."""

from __future__ import annotations

import functools
import subprocess
import sys

import pytest

from helpers import ROOT
from jitlint.docs import REGENERATE, render
from jitlint.rules import ALL_RULES

RULES_MD = ROOT / "docs" / "rules.md"  # the checkout's (an installed jitlint has no docs/)

SECTIONS = ("## What it does", "## Why is this bad?", "## Fix safety", "## Example", "## Use instead")


def test_docs_rules_md_is_up_to_date():
    current = RULES_MD.read_text(encoding="utf-8") if RULES_MD.exists() else ""
    assert current == render(), (
        f"docs/rules.md is out of date with the rules' docstrings; regenerate it with "
        f"`{REGENERATE}` and commit it")


def test_check_mode_tells_how_to_regenerate(tmp_path):
    stale = tmp_path / "rules.md"
    stale.write_text("old\n")
    proc = subprocess.run([sys.executable, "-m", "jitlint.docs", "--check", "--output", str(stale)],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and REGENERATE in proc.stderr
    subprocess.run([sys.executable, "-m", "jitlint.docs", "--output", str(stale)], check=True)
    assert stale.read_text() == render()


def test_from_an_installed_wheel_it_refuses_to_write_without_output(tmp_path, monkeypatch, capsys):
    # An installed package has no pyproject.toml two levels up: the default output would be
    # inside site-packages.
    import jitlint.docs
    target = tmp_path / "site-packages" / "docs" / "rules.md"
    monkeypatch.setattr(jitlint.docs, "RULES_MD", target)
    with pytest.raises(SystemExit) as exit_:
        jitlint.docs.main([])
    assert exit_.value.code == 2 and "pass --output" in capsys.readouterr().err
    assert not target.exists()


@pytest.mark.parametrize("code", [c for c in ALL_RULES if c != "JIT000"])
def test_every_rule_documents_every_section(code):
    doc = ALL_RULES[code].doc()
    missing = [section for section in SECTIONS if section not in doc]
    assert not missing, f"{code}'s docstring lacks {missing}"


@functools.cache
def rendered() -> str:
    return render()


@pytest.mark.parametrize("code", list(ALL_RULES))
def test_jitlint_rule_prints_the_same_doc(code, run_cli):
    exit_code, out, _ = run_cli("rule", code.lower())  # `python -m jitlint rule`: test_confirm
    assert exit_code == 0
    assert out == ALL_RULES[code].doc()
    # ... and docs/rules.md holds it, one heading level down.
    assert f"## {code} {ALL_RULES[code].name}\n" in rendered()


def test_readme_sample_output_is_what_jitlint_prints_on_the_examples(tmp_path):
    """The README's `$ jitlint examples/` block shows lines jitlint really prints there."""
    import re
    import shutil

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```text\n\$ jitlint examples/\n(.*?)```", readme, re.S)
    assert block is not None
    shown = [line for line in block.group(1).splitlines() if line.startswith("examples/")]
    assert shown
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    proc = subprocess.run([sys.executable, "-m", "jitlint", "examples/"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    printed = proc.stdout.splitlines()
    for line in shown:
        assert line in printed, (line, proc.stdout)
