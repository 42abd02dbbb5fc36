"""The one-file case (pre-commit, flake8) of two jitlint checkouts side by side: cold and warm
cache, the CLI and the flake8 plugin, alternating runs so that load affects both alike.

    python benchmarks/one_file.py --corpus DIR --before OLD_CHECKOUT [--after .] [--repeat 3]

It picks the file as benchmarks/run.py does (about 1,000 lines that apply jit).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as bench  # noqa: E402  (benchmarks/run.py: the corpus helpers)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the old jitlint")
    parser.add_argument("--after", type=Path, default=Path("."))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    single = bench.pick_single_file(bench.python_files(args.corpus.resolve()))
    print(f"file: {single} ({bench.count_lines([single])} lines)")
    work = Path(tempfile.mkdtemp(prefix="jitlint-one-file-"))
    cache = work / "cache"
    flake8_cache = work / ".jitlint_cache"  # flake8 runs in ``work``: its config root
    cases = {
        "jitlint check --no-cache FILE": (None, ["-m", "jitlint", "check", "--no-cache"]),
        "jitlint check FILE, warm cache": (None, ["-m", "jitlint", "check", "--cache-dir", str(cache)]),
        "flake8 --select JIT FILE, cold cache": (flake8_cache, ["-m", "flake8", "--select", "JIT"]),
        "flake8 --select JIT FILE, warm cache": (None, ["-m", "flake8", "--select", "JIT"]),
    }
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.repeat):
        for name, (clear, argv) in cases.items():
            for label, checkout in (("before", args.before), ("after", args.after)):
                if clear is not None:
                    shutil.rmtree(clear, ignore_errors=True)
                env = dict(os.environ, PYTHONPATH=str(checkout.resolve()))
                start = time.perf_counter()
                subprocess.run([sys.executable, *argv, "--exit-zero", str(single)], cwd=work,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times.setdefault((name, label), []).append(time.perf_counter() - start)
    print("| case | before s | after s |\n| --- | ---: | ---: |")
    for name in cases:
        medians = [sorted(times[name, label])[args.repeat // 2] for label in ("before", "after")]
        print(f"| `{name}` | {medians[0]:.2f} | {medians[1]:.2f} |")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
