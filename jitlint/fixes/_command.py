"""``jitlint check --fix`` / ``--diff``: the CLI side of the fixes, kept out of cli.py."""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from jitlint.config import Settings


def add_arguments(check: argparse.ArgumentParser) -> None:
    check.add_argument("--fix", action="store_true",
                       help="apply the safe fixes (then report what is left)")
    check.add_argument("--diff", action="store_true",
                       help="print the safe fixes as a unified diff and change nothing "
                            "(exit 1 when there is something to fix)")
    check.add_argument("--unsafe-fixes", action=argparse.BooleanOptionalAction, default=None,
                       help="with --fix / --diff, apply the unsafe fixes too: probably right, but "
                            "they could change what the code does (default: unsafe-fixes in the "
                            "config, else off)")
    check.add_argument("--show-fixes", action="store_true",
                       help="say for each finding left why it has no fix applied, and list the "
                            "fixes --fix applied")


def run(args: argparse.Namespace, files: Sequence[str], settings: Settings) -> Optional[int]:
    """Apply or show fixes.  Returns the exit code for ``--diff``; None to go on linting."""
    if not (args.fix or args.diff):
        return None
    from jitlint.fixes import fix_files

    results = fix_files(files, settings, write=not args.diff)
    changed = [r for r in results if r.changed]
    if args.diff:
        sys.stdout.write("".join(r.diff() for r in changed))
        count = sum(len(r.applied) for r in changed)
        if count:
            print(f"jitlint: {count} fix(es) available in {len(changed)} file(s)", file=sys.stderr)
        return 1 if changed else 0
    for r in changed:
        if r.not_written is not None:
            print(f"jitlint: {r.path}: {r.not_written}", file=sys.stderr)
    written = [r for r in changed if r.not_written is None]
    if args.show_fixes:
        for r in written:
            for fix in r.applied:
                # a notebook's fixes are numbered by the line of its code cells joined
                where = r.path if hasattr(r, "cells") else f"{r.path}:{fix.line}"
                unsafe = " (unsafe)" if fix.applicability == "unsafe" else ""
                print(f"jitlint: fixed {where}: {fix.code}{unsafe} {fix.description}",
                      file=sys.stderr)
    count = sum(len(r.applied) for r in written)
    if count:
        print(f"jitlint: fixed {count} finding(s) in {len(written)} file(s)", file=sys.stderr)
    return None
