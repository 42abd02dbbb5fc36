"""Generate docs/rules.md from the rules themselves (their docstrings and examples).

    python -m jitlint.docs            write docs/rules.md
    python -m jitlint.docs --check    exit 1 if docs/rules.md is out of date

Each rule's documentation lives with the rule (``Rule.doc()``: What it does / Why is this
bad? with measured compile counts / Fix safety / Example / Use instead); ``jitlint rule CODE``
prints the same text.  This file only assembles the index.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from jitlint.fixes import fixable_codes
from jitlint.output import INFORMATION_URI
from jitlint.rules import ALL_RULES

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
REGENERATE = "python -m jitlint.docs"
# docs/rules.md as the repository shows it; each rule is a section of it (rule_url)
RULES_URL = f"{INFORMATION_URI}/blob/main/docs/rules.md"


def render() -> str:
    fixable = set(fixable_codes())
    out = [
        "# jitlint rules",
        "",
        f"<!-- Generated from the rules' own docs by `{REGENERATE}`; do not edit by hand. -->",
        "",
        "Every rule, with what it costs at run time (measured on jax 0.10.2, CPU). "
        "`jitlint rule CODE` prints one of these sections; `jitlint check --fix` applies the "
        "fixes marked below (only where they are safe; `--diff` shows them first).",
        "",
        "| Code | Name | Severity | Fix | Summary |",
        "| --- | --- | --- | --- | --- |",
    ]
    for code, rule in ALL_RULES.items():
        fix = "yes" if code in fixable else ""
        out.append(f"| [{code}](#{_anchor(code, rule.name)}) | `{rule.name}` | {rule.severity} "
                   f"| {fix} | {rule.summary} |")
    for code, rule in ALL_RULES.items():
        doc = rule.doc().rstrip("\n")
        # One level down: the rule's title becomes a section of this page.
        lines = _demote_headings(doc)
        if code in fixable:
            lines += ["", "### Fix", "", "Available: `jitlint check --fix` applies it where it "
                      "is safe (see Fix safety); `jitlint check --diff` shows it first."]
        out += ["", *lines]
    return "\n".join(out) + "\n"


def _demote_headings(doc: str) -> list[str]:
    """The rule's doc one heading level down (``#`` lines inside ``` fences are code)."""
    lines, fenced = [], False
    for line in doc.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        lines.append(f"#{line}" if line.startswith("#") and not fenced else line)
    return lines


def _anchor(code: str, name: str) -> str:
    return f"{code}-{name}".lower()


def rule_url(code: str) -> str:
    """The rule's section of docs/rules.md online (the language server links each finding
    to it)."""
    return f"{RULES_URL}#{_anchor(code, ALL_RULES[code].name)}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jitlint.docs", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/rules.md is stale")
    parser.add_argument("--output", type=Path, default=None,
                        help="the file to write or check (default: docs/rules.md of the source "
                             "checkout; required when jitlint runs from an installed wheel)")
    args = parser.parse_args(argv)
    if args.output is None:
        # An installed wheel has no docs/ beside the package: never write into site-packages.
        if not (RULES_MD.parent.parent / "pyproject.toml").is_file():
            parser.error("not running from a source checkout; pass --output FILE")
        args.output = RULES_MD
    text = render()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is out of date; regenerate it with `{REGENERATE}`", file=sys.stderr)
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
