"""Score jitlint on one split of the thread reproductions, as ../shared/realworld/score.py does.

    python benchmarks/score_threads.py validation/threads/heldout [--show-json]

(from the project root, with jitlint importable). It lints the split directory with
``python -m jitlint check --no-cache --exit-zero --output-format json`` and compares the findings
with every ``labels*.json`` there (labels-jax.json, labels-ecosystem.json). The matching rules are
score.py's: a finding matches an expected problem when its code's family (JIT1
jit-in-loop-or-body, JIT2 nested-jit, JIT3 unhashable-static, JIT4 changing-static, JIT5
shape-churn, JIT6 stale-closure, JIT7 bad-static-spec, JIT8 trace-time-error; JIT2/JIT4 accepted
for each other) agrees and its line is within 3 of the labelled line (a label may list several
acceptable lines). A repeat of a matched finding within 3 lines, or a finding at a line the label
lists in ``also_lines``, is not counted as false. Files labelled ``none`` must stay silent.
JIT000 (parse errors) and JIT900 (internal errors) are not findings.

JIT520 counts as jit-in-loop-or-body (CODE_FAMILY below), unlike score.py.

The held-out split is for one measurement at the end: do not tune on what this prints for it.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
from pathlib import Path

from run_threads import load_labels

FAMILY = {"JIT1": "jit-in-loop-or-body", "JIT2": "nested-jit", "JIT3": "unhashable-static",
          "JIT4": "changing-static", "JIT5": "shape-churn", "JIT6": "stale-closure",
          "JIT7": "bad-static-spec", "JIT8": "trace-time-error"}
# JIT520 (eager lax control flow in a loop) is numbered with the 5xx rules but its problem is a
# compile on every iteration of a loop: jit-in-loop-or-body, not shape churn.  score.py maps by
# prefix only; these are the codes whose number and family disagree.  JIT820 (jax.jit around an
# NNX in-place update) is numbered with the trace-time misuses, but its problem is an update
# silently lost: stale-closure, as JIT604's lost attribute write.
CODE_FAMILY = {"JIT520": "jit-in-loop-or-body", "JIT820": "stale-closure"}
ALIASES = {"nested-jit": {"changing-static"}, "changing-static": {"nested-jit"}}


def family(code: str) -> str:
    return CODE_FAMILY.get(code) or FAMILY.get(code[:4], "other:" + code)


def fits(code: str, fa: str) -> bool:
    return family(code) == fa or family(code) in ALIASES.get(fa, ())


def near(line: int, lines) -> bool:
    return any(abs(line - n) <= 3 for n in (lines if isinstance(lines, list) else [lines]))


def lint(split: Path) -> list[dict]:
    run = subprocess.run([sys.executable, "-m", "jitlint", "check", "--no-cache", "--exit-zero",
                          "--output-format", "json", str(split)], capture_output=True, text=True,
                         check=False)
    if run.returncode != 0 or not run.stdout.strip():
        sys.exit(f"jitlint failed (exit {run.returncode}): {run.stderr.strip()[-500:]}")
    return [f for f in json.loads(run.stdout) if f["code"] not in ("JIT000", "JIT900")]


def score(labels: list[dict], findings: list[dict]):
    """(found, false, missed), the same per family, and the missed and false places."""
    by_file = collections.defaultdict(list)
    for f in findings:
        by_file[os.path.basename(f["path"])].append(f)
    counts = [0, 0, 0]
    table = collections.defaultdict(lambda: [0, 0, 0])
    misses, falses = [], []
    for lab in labels:
        expected = [(fa, ln) for fa, ln in zip(lab["families"], lab["lines"]) if fa != "none"]
        found = by_file.get(lab["file"], [])
        used = set()
        for fa, ln in expected:
            hit = next((i for i, f in enumerate(found)
                        if i not in used and fits(f["code"], fa) and near(f["line"], ln)), None)
            if hit is None:
                counts[2] += 1
                table[fa][2] += 1
                misses.append(f"{lab['file']}:{ln} {fa}")
            else:
                used.add(hit)
                counts[0] += 1
                table[fa][0] += 1
        matched = [found[i] for i in used]
        for i, f in enumerate(found):
            if i in used or any(family(m["code"]) == family(f["code"]) and abs(m["line"] - f["line"]) <= 3
                                for m in matched):
                continue
            also = lab.get("also_lines", [])
            if any(fits(f["code"], fa) for fa in lab["families"]) and near(f["line"], also):
                continue
            counts[1] += 1
            table[family(f["code"])][1] += 1
            falses.append(f"{lab['file']}:{f['line']} {f['code']}")
    return counts, table, misses, falses


def figures(found: int, false: int, missed: int) -> str:
    prec = found / (found + false) if found + false else 0.0
    rec = found / (found + missed) if found + missed else 0.0
    return f"precision {prec:.2f} recall {rec:.2f} (found {found}, false {false}, missed {missed})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("split", type=Path, help="a split directory, e.g. validation/threads/heldout")
    parser.add_argument("--show-json", action="store_true", help="print jitlint's findings first")
    args = parser.parse_args(argv)

    labels = load_labels(args.split)
    findings = lint(args.split)
    if args.show_json:
        print(json.dumps(findings, indent=1))
    labelled = {lab["file"] for lab in labels}
    unlabelled = sorted({os.path.basename(f["path"]) for f in findings} - labelled)
    counts, table, misses, falses = score(labels, findings)
    print(f"{'family':24s} {'found':>5s} {'false':>5s} {'missed':>6s}")
    for k, (a, b, c) in sorted(table.items()):
        print(f"{k:24s} {a:5d} {b:5d} {c:6d}")
    if misses:
        print("missed:", *misses, sep="\n  ")
    if falses:
        print("false positives:", *falses, sep="\n  ")
    if unlabelled:
        print("findings in unlabelled files (not scored):", *unlabelled, sep="\n  ")
    threads = len({lab["source"] for lab in labels})
    print(f"{args.split.name}: {len(labels)} files from {threads} threads")
    print(f"all: {figures(*counts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
