"""Lint big trees of real code that jitlint was not written for, and fail on any traceback.

Not a timed test: a robustness check (docs/reliability.md).  By default the CPython standard
library of the running interpreter and, when present, the JAX ecosystem corpus:

    python benchmarks/robustness.py [DIR ...]

Each tree is linted by the real CLI in a subprocess (no cache, every rule, no prefilter, so
every file is parsed and analysed).  It prints, per tree: files, exit code, JIT000 count, and
whether stderr held a traceback or an internal error; it exits 1 if any tree did.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

CORPUS = Path("/work/jaxcorpus/corpus")


def main(argv: list[str]) -> int:
    trees = [Path(a) for a in argv] or [Path(sysconfig.get_paths()["stdlib"])] + \
        ([CORPUS] if CORPUS.is_dir() else [])
    failed = False
    for tree in trees:
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "jitlint", "check", "--no-cache",
                               "--no-prefilter", "--no-respect-gitignore", "--output-format", "json",
                               "--exit-zero", str(tree)], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        try:
            findings = json.loads(proc.stdout)
        except json.JSONDecodeError:
            findings = None
        bad = "Traceback" in proc.stderr or "internal error" in proc.stderr or findings is None \
            or proc.returncode not in (0, 1)
        failed |= bad
        files = sum(1 for p in tree.rglob("*") if p.suffix in (".py", ".pyi", ".ipynb"))
        jit000 = [f for f in findings or () if f["code"] == "JIT000"]
        print(f"{tree}: {files} files, exit {proc.returncode}, {len(findings or ())} findings, "
              f"{len(jit000)} JIT000, {'TRACEBACK/INTERNAL ERROR' if bad else 'no traceback'}, "
              f"{seconds:.0f} s")
        for f in jit000:
            print(f"  JIT000 {f['path']}:{f['line']}: {f['message']}")
        if bad:
            print(proc.stderr[-4000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
