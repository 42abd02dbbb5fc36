"""Re-run the thread reproductions of one split with real JAX and check them against their labels.

    python benchmarks/run_threads.py validation/threads/tuned [-j 2] [--python PY] [--only GLOB]

Every ``labels*.json`` in the split directory is read (``labels-jax.json``,
``labels-ecosystem.json``, ...; same schema as ``../shared/realworld/cases*/labels.json``). Each
case runs as its own process under ``--python`` (default: this interpreter; it needs jax, CPU is
enough) with ``JAX_PLATFORMS=cpu``. A case passes when

- its last stdout line is ``COMPILES a CALLS b`` (or ``ERROR Type``) as labelled, and
- its header lines (``# source:``, ``# expect:``, ``# runtime:``) say the same as the labels.

Cases whose ``requires`` packages the interpreter cannot import are skipped. Exit status 0 when
nothing failed (skips allowed), 1 otherwise. This never runs jitlint: it checks the data only.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HEADER_LINES = 6  # source, expect, runtime, why (+ slack)


def load_labels(split: Path) -> list[dict]:
    """Every label of every labels*.json in the split, each with the file it came from."""
    labels = []
    for path in sorted(split.glob("labels*.json")):
        for lab in json.loads(path.read_text()):
            labels.append(dict(lab, _labels_file=path.name))
    names = [lab["file"] for lab in labels]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        sys.exit(f"files labelled twice in {split}: {', '.join(dupes)}")
    return labels


def expected_runtime(lab: dict) -> str:
    if lab["error"]:
        return f"ERROR {lab['error']}"
    return f"COMPILES {lab['runtime_compiles']} CALLS {lab['runtime_calls']}"


def expected_expect(lab: dict) -> str:
    if lab["families"] == ["none"]:
        return "none"
    return "; ".join(f"{fa} at line {ln[0] if isinstance(ln, list) else ln}"
                     for fa, ln in zip(lab["families"], lab["lines"]))


def header(path: Path) -> dict[str, str]:
    lines = path.read_text().splitlines()[:HEADER_LINES]
    return {ln.split(":", 1)[0][2:]: ln.split(":", 1)[1].strip()
            for ln in lines if ln.startswith("# ") and ":" in ln}


def importable(python: str, packages: set[str]) -> dict[str, bool]:
    probe = ("import importlib.util, json, sys; "
             "print(json.dumps({p: importlib.util.find_spec(p) is not None for p in sys.argv[1:]}))")
    run = subprocess.run([python, "-c", probe, *sorted(packages)], capture_output=True, text=True,
                         check=False)
    if run.returncode != 0:
        sys.exit(f"{python} cannot run: {run.stderr.strip()[-300:]}")
    return json.loads(run.stdout)


def run_case(python: str, path: Path, timeout: float) -> tuple[str, str]:
    """The case's last stdout line, and the tail of its stderr."""
    env = dict(os.environ, JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3")
    try:
        run = subprocess.run([python, str(path.resolve())], capture_output=True, text=True,
                             env=env, timeout=timeout, cwd=path.parent, check=False)
    except subprocess.TimeoutExpired:
        return "<timed out>", ""
    out = run.stdout.strip().splitlines()
    return (out[-1] if out else "<no output>"), "\n".join(run.stderr.strip().splitlines()[-3:])


def check(lab: dict, split: Path, last: str) -> list[str]:
    want = expected_runtime(lab)
    hdr = header(split / lab["file"])
    problems = []
    if last != want:
        problems.append(f"got {last!r}, label {want!r}")
    if hdr.get("runtime") != want:
        problems.append(f"header runtime {hdr.get('runtime')!r}")
    if hdr.get("expect") != expected_expect(lab):
        problems.append(f"header expect {hdr.get('expect')!r} != labels {expected_expect(lab)!r}")
    if hdr.get("source") != lab.get("source"):
        problems.append("header source differs from the labels")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("split", type=Path, help="a split directory, e.g. validation/threads/tuned")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--python", default=sys.executable, help="interpreter with jax installed")
    parser.add_argument("--only", default="*", help="glob on the case's file name (without .py)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per case")
    args = parser.parse_args(argv)

    labels = [lab for lab in load_labels(args.split)
              if fnmatch.fnmatch(lab["file"][:-3], args.only)]
    if not labels:
        sys.exit(f"no labelled cases in {args.split} match {args.only}")
    have = importable(args.python, {p for lab in labels for p in lab.get("requires", [])})
    runnable = [lab for lab in labels if all(have[p] for p in lab.get("requires", []))]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = dict(zip((lab["file"] for lab in runnable),
                           pool.map(lambda lab: run_case(args.python, args.split / lab["file"],
                                                         args.timeout), runnable)))
    passed = failed = skipped = 0
    for lab in labels:
        if lab["file"] not in results:
            skipped += 1
            missing = [p for p in lab.get("requires", []) if not have[p]]
            print(f"SKIP {lab['file']}: needs {', '.join(missing)}")
            continue
        last, err = results[lab["file"]]
        problems = check(lab, args.split, last)
        if problems:
            failed += 1
            print(f"FAIL {lab['file']} ({lab['_labels_file']}): " + "; ".join(problems))
            for line in err.splitlines():
                print("    " + line)
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
