"""What installing jitlint adds to a ``flake8`` run, against jitlint's own cold CLI run.

    python -m venv /tmp/flake8-only && /tmp/flake8-only/bin/pip install flake8 flake8-bugbear
    python benchmarks/flake8_cost.py --corpus /work/jaxcorpus/corpus \
        --without /tmp/flake8-only/bin/python --repeat 2

Runs, alternated, each in a fresh working directory (so every jitlint run is cold: the corpus
has no pyproject.toml, so its ``.jitlint_cache`` goes to the working directory):

* ``flake8 --select B`` in a virtualenv **without** jitlint (``--without``: its python);
* ``flake8 --select B,JIT`` with jitlint installed (this interpreter, which must import
  flake8 and flake8-bugbear; run it with PYTHONPATH=<checkout> to measure a checkout);
* ``jitlint check --no-cache --exit-zero`` (this interpreter);
* with ``--plain-select-b``, also ``flake8 --select B`` with jitlint installed.

The cost of jitlint in flake8 is (flake8 with jitlint) - (flake8 without); the goal of issue 26
is at most 1.2x jitlint's cold CLI time, wall.  ``flake8 --select B`` with jitlint installed
costs nothing more (the plugin does no work when flake8 shows no JIT code), so B,JIT is the
case to measure.  The JIT findings of the flake8 run are checked against the CLI's.  The load
average is printed beside each run: the numbers mean little on a busy machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

FORMAT = "%(path)s|%(row)d|%(col)d|%(code)s"


def measure(argv: Sequence[str], cwd: Path) -> tuple[float, float, str, str]:
    """(wall s, CPU s of the process tree, stdout, load average before) of one run."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(list(argv), cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout, f"{load:.2f}"


def flake8_findings(stdout: str) -> set[tuple[str, int, int, str]]:
    rows = set()
    for line in stdout.splitlines():
        path, row, col, code = line.split("|")
        if code.startswith("JIT"):
            rows.add((os.path.abspath(path), int(row), int(col), code))
    return rows


def cli_findings(stdout: str) -> set[tuple[str, int, int, str]]:
    return {(os.path.abspath(d["path"]), d["line"], d["column"], d["code"])
            for d in json.loads(stdout)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--without", required=True,
                        help="the python of a virtualenv with flake8 and flake8-bugbear, without jitlint")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--plain-select-b", action="store_true",
                        help="also time flake8 --select B with jitlint installed")
    args = parser.parse_args()
    corpus = str(args.corpus.resolve())
    runs = {
        "flake8 --select B, without jitlint": [args.without, "-m", "flake8", "--select", "B",
                                               f"--format={FORMAT}", corpus],
        "flake8 --select B,JIT, with jitlint": [sys.executable, "-m", "flake8", "--select", "B,JIT",
                                                f"--format={FORMAT}", corpus],
        "jitlint check --no-cache --exit-zero": [sys.executable, "-m", "jitlint", "check", "--no-cache",
                                                 "--exit-zero", "--output-format", "json", corpus],
    }
    if args.plain_select_b:
        runs["flake8 --select B, with jitlint"] = [sys.executable, "-m", "flake8", "--select", "B",
                                                   f"--format={FORMAT}", corpus]
    times: dict[str, list[tuple[float, float, str]]] = {name: [] for name in runs}
    outputs: dict[str, str] = {}
    for _ in range(args.repeat):
        for name, argv in runs.items():
            with tempfile.TemporaryDirectory() as cwd:
                wall, cpu, stdout, load = measure(argv, Path(cwd))
            times[name].append((wall, cpu, load))
            outputs[name] = stdout
            print(f"{name}: {wall:.1f} s wall, {cpu:.1f} s CPU (load before: {load})", flush=True)

    with_jit = flake8_findings(outputs["flake8 --select B,JIT, with jitlint"])
    cli = cli_findings(outputs["jitlint check --no-cache --exit-zero"])
    # the plugin gives flake8 0-based columns, which flake8 prints 1-based, as the CLI's
    same = with_jit == cli
    print(f"\nJIT findings: flake8 {len(with_jit)}, CLI {len(cli)}, identical: {same}")

    def median(name: str, index: int) -> float:
        return statistics.median(t[index] for t in times[name])

    without = median("flake8 --select B, without jitlint", 0)
    with_ = median("flake8 --select B,JIT, with jitlint", 0)
    cli_wall = median("jitlint check --no-cache --exit-zero", 0)
    print("\n| run | wall s (each run) | CPU s (each run) | load before |")
    print("| --- | ---: | ---: | ---: |")
    for name in runs:
        print(f"| {name} | {' / '.join(f'{t[0]:.1f}' for t in times[name])} | "
              f"{' / '.join(f'{t[1]:.1f}' for t in times[name])} | "
              f"{' / '.join(t[2] for t in times[name])} |")
    added = with_ - without
    print(f"\nadded by jitlint in flake8 (median wall): {added:.1f} s = {added / cli_wall:.2f}x "
          f"jitlint's cold CLI ({cli_wall:.1f} s); goal <= 1.2x")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
