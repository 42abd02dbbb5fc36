"""Benchmark jitlint against flake8-bugbear and ruff on a real corpus, as whole processes.

    bash ../shared/bench/make_corpus.sh /tmp/jaxcorpus        # once: 1,411 files, 550k lines
    pip install -e '.[bench]'                                 # flake8-bugbear, ruff, matplotlib
    python benchmarks/run.py --corpus /tmp/jaxcorpus/corpus --markdown docs/performance.md

Every tool runs as a separate process with its default parallelism, side by side, repeated
``--repeat`` times (the median is reported).  Peak memory is the largest resident set of any
process the tool started (getrusage of the reaped children).  ``--markdown`` writes the table and
the command to a file; with matplotlib installed, a plot of jitlint's time against lines
(subsets of the corpus) is written next to it as a PNG.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

JITLINT = [sys.executable, "-m", "jitlint"]


@dataclass
class Timing:
    name: str
    command: str
    wall: float  # median seconds
    cpu: float  # median user+sys seconds of the children
    peak_mb: float
    exit_codes: tuple[int, ...]


def run_once(argv: Sequence[str], cwd: Path) -> tuple[float, float, float, int]:
    """Wall, CPU and peak RSS (MB) of one process tree, in a fresh forked measurer.

    A fresh child per measurement keeps RUSAGE_CHILDREN's max-RSS from leaking between runs.
    """
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the measurer
        os.close(read)
        start = time.perf_counter()
        proc = subprocess.run(list(argv), cwd=cwd, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        os.write(write, f"{wall} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss / 1024} "
                        f"{proc.returncode}".encode())
        os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 4096):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    wall, cpu, peak, code = data.decode().split()
    return float(wall), float(cpu), float(peak), int(code)


def measure(name: str, argv: Sequence[str], cwd: Path, repeat: int, before=None) -> Timing:
    runs = []
    for _ in range(repeat):
        if before is not None:
            before()
        runs.append(run_once(argv, cwd))
    return Timing(name, " ".join(_short(a) for a in argv), statistics.median(r[0] for r in runs),
                  statistics.median(r[1] for r in runs), max(r[2] for r in runs),
                  tuple(r[3] for r in runs))


def _short(arg: str) -> str:
    return "python" if arg == sys.executable else arg


def count_lines(files: Sequence[Path]) -> int:
    total = 0
    for path in files:
        with open(path, "rb") as handle:
            total += sum(1 for _ in handle)
    return total


def python_files(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.rglob("*.py") if p.is_file())


USES_JIT = re.compile(r"\bjax\.jit\(|@jax\.jit\b|@jit\b|\bfilter_jit\b|partial\(jax\.jit")


def pick_single_file(files: Sequence[Path], target_lines: int = 1000) -> Path:
    """A real file of about ``target_lines`` lines that applies jit (the pre-commit case; a
    file that only mentions jit in comments would skip the parse and flatter jitlint)."""
    best, best_gap = files[0], float("inf")
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if not USES_JIT.search(text):
            continue
        gap = abs(text.count("\n") - target_lines)
        if gap < best_gap:
            best, best_gap = path, gap
    return best


def scaling(files: Sequence[Path], work: Path, repeat: int) -> list[tuple[int, float]]:
    """jitlint's cold time on growing subsets of the corpus: (lines, seconds).

    The subsets are drawn in a fixed random order so that each has the corpus's mix of
    packages (in path order the jit-dense jax package would all come last)."""
    files = list(files)
    random.Random(0).shuffle(files)
    points = []
    for fraction in (0.125, 0.25, 0.5, 0.75, 1.0):
        subset = files[: max(1, int(len(files) * fraction))]
        listing = work / f"subset-{fraction}.txt"
        listing.write_text("\n".join(map(str, subset)))
        argv = JITLINT + ["--no-cache", "--exit-zero", *map(str, subset)]
        timing = measure(f"subset {fraction}", argv, work, repeat)
        points.append((count_lines(subset), timing.wall))
    return points


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", type=Path, help="write the results table here")
    parser.add_argument("--no-scaling", action="store_true", help="skip the time-vs-lines runs")
    args = parser.parse_args(argv)

    corpus = args.corpus.resolve()
    files = python_files(corpus)
    lines = count_lines(files)
    work = Path(tempfile.mkdtemp(prefix="jitlint-bench-"))
    cache_dir = work / "cache"
    print(f"corpus: {corpus}: {len(files)} files, {lines} lines", file=sys.stderr)

    def clear_cache():
        shutil.rmtree(cache_dir, ignore_errors=True)

    env_cache = ["--cache-dir", str(cache_dir)]
    single = pick_single_file(files)
    results = [
        measure("jitlint, cold (no cache)", JITLINT + ["--no-cache", "--exit-zero", str(corpus)],
                work, args.repeat),
        measure("jitlint, cold (empty cache)", JITLINT + env_cache + ["--exit-zero", str(corpus)],
                work, args.repeat, before=clear_cache),
    ]
    subprocess.run(JITLINT + env_cache + ["--exit-zero", str(corpus)], cwd=work,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # prime the cache
    results.append(measure("jitlint, warm (nothing changed)",
                           JITLINT + env_cache + ["--exit-zero", str(corpus)], work, args.repeat))
    results.append(measure(f"jitlint, one file ({count_lines([single])} lines)",
                           JITLINT + ["--no-cache", "--exit-zero", str(single)], work, args.repeat))
    if shutil.which("flake8"):
        results.append(measure("flake8 --select B (bugbear)",
                               ["flake8", "--select", "B", "--exit-zero", str(corpus)], work, args.repeat))
        results.append(measure("flake8 --select B, one file",
                               ["flake8", "--select", "B", "--exit-zero", str(single)], work, args.repeat))
    if shutil.which("ruff"):
        results.append(measure("ruff check --select B --no-cache",
                               ["ruff", "check", "--select", "B", "--no-cache", "--exit-zero",
                                str(corpus)], work, args.repeat))

    bugbear = next((r for r in results if r.name.startswith("flake8 --select B (")), None)
    cold = results[0]
    table = render_table(results, bugbear, cold)
    print(table)
    points = [] if args.no_scaling else scaling(files, work, 1)
    if points:
        print("\nlines\tseconds")
        for n, secs in points:
            print(f"{n}\t{secs:.2f}")
    if args.markdown:
        write_markdown(args.markdown, table, points, len(files), lines, corpus)
    shutil.rmtree(work, ignore_errors=True)
    return 0


def render_table(results: Sequence[Timing], bugbear: Optional[Timing], cold: Timing) -> str:
    rows = ["| run | wall s | CPU s | peak RSS MB | vs bugbear | vs jitlint cold |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        vs_bugbear = f"{r.wall / bugbear.wall:.2f}" if bugbear else "-"
        rows.append(f"| {r.name} | {r.wall:.2f} | {r.cpu:.2f} | {r.peak_mb:.0f} | {vs_bugbear} | "
                    f"{r.wall / cold.wall:.3f} |")
    return "\n".join(rows)


def write_markdown(path: Path, table: str, points, n_files: int, n_lines: int, corpus: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    plot = path.with_suffix(".png")
    plotted = False
    if points:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt

            fig, ax = plt.subplots(figsize=(6, 4))
            xs, ys = zip(*points)
            ax.plot(xs, ys, "o-")
            ax.set_xlabel("lines of Python linted")
            ax.set_ylabel("jitlint wall time, cold (s)")
            ax.set_title("jitlint time against corpus size")
            ax.set_xlim(left=0)
            ax.set_ylim(bottom=0)
            ax.grid(True, alpha=0.3)
            fig.tight_layout()
            fig.savefig(plot, dpi=100)
            plotted = True
        except ImportError:
            pass
    scaling_rows = "\n".join(f"| {n} | {s:.2f} |" for n, s in points)
    text = [
        "# Performance",
        "",
        f"Corpus: the ten JAX-ecosystem packages of `../shared/bench/make_corpus.sh` "
        f"({n_files} files, {n_lines} lines). Machine: {os.cpu_count()} CPUs. "
        "Each row is a whole process with the tool's default parallelism, median of the runs.",
        "",
        "Measured with:",
        "",
        "```bash",
        f"python benchmarks/run.py --corpus {corpus} --markdown {path}",
        "```",
        "",
        table,
        "",
    ]
    if points:
        text += ["## Time against lines", "", "| lines | seconds |", "| ---: | ---: |", scaling_rows, ""]
        if plotted:
            text += [f"![jitlint time against lines]({plot.name})", ""]
    path.write_text("\n".join(text))


if __name__ == "__main__":
    sys.exit(main())
