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
    count = sum(len(r.applied) for r in written)
    if count:
        print(f"jitlint: fixed {count} finding(s) in {len(written)} file(s)", file=sys.stderr)
    return None
