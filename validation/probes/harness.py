"""What the probe sets share: their headers, scoring jitlint on them, running one under JAX.

A probe is a runnable program: a ``.py`` file, a notebook (``.ipynb``, its cells run in order)
or a directory holding a small project (``main.py`` is run, with the directory on sys.path).
``p_*`` probes misbehave, ``n_*`` are the correct look-alikes.  The header (in ``main.py`` of a
directory probe, in the first cell of a notebook) says what jitlint should report and what the
probe does under JAX::

    # expect: JIT401 at line 12                  (or: none)
    # expect: JIT401 at line 12, 15              (the finding may sit on either line)
    # expect: JIT401 at helpers.py line 7        (a directory probe: in another of its files)
    # expect: JIT601 at cell 2 line 3            (a notebook: the line within the cell)

Several ``# expect:`` lines are alternatives (the finding may sit at the helper in another file
or at its call).  A probe's expected finding is found when jitlint reports a code of the same
family (``family``) within one line of one of the expected lines (several such findings, say two rules on one
line, count as one); every other finding (any code, in any probe, negatives included) is
false.  JIT000 and JIT900 are not findings.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import runpy
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

EXPECT = re.compile(r"^# expect: (?:(?P<code>JIT\d+) at (?:(?P<file>[\w.]+\.py) |cell (?P<cell>\d+) )?"
                    r"line (?P<lines>\d+(?:, \d+)*)|none)$", re.M)
RUNTIME = re.compile(r"^# runtime: (?P<value>.+)$", re.M)
NOT_FINDINGS = ("JIT000", "JIT900")


def family(code: str) -> str:
    """Which findings answer for one another: the static-argument rules (JIT2xx-4xx) are one
    family, every other hundred its own (JIT1 fresh jits, JIT5 shapes, JIT6 stale, JIT8 trace)."""
    return "static" if code[3] in "234" else code[:4]


@dataclass(frozen=True)
class Expectation:
    code: str
    file: Optional[str]  # a directory probe's file the finding is in (main.py when None)
    cell: Optional[int]  # a notebook's cell
    lines: tuple[int, ...]

    def matches(self, probe: "Probe", finding: dict) -> bool:
        if family(finding["code"]) != family(self.code):
            return False
        if probe.path.is_dir() and Path(finding["path"]).name != (self.file or "main.py"):
            return False
        if self.cell is not None and finding.get("cell") != self.cell:
            return False
        return any(abs(finding["line"] - line) <= 1 for line in self.lines)

    def describe(self) -> str:
        where = f"{self.file} " if self.file else f"cell {self.cell} " if self.cell else ""
        return f"{self.code} at {where}line {', '.join(map(str, self.lines))}"


@dataclass(frozen=True)
class Probe:
    path: Path  # the file, notebook or directory

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def header_file(self) -> Path:
        return self.path / "main.py" if self.path.is_dir() else self.path

    @property
    def header(self) -> str:
        """The probe's text that holds its header (a notebook's first cell)."""
        text = self.header_file.read_text()
        if self.path.suffix == ".ipynb":
            return "".join(json.loads(text)["cells"][0]["source"])
        return text

    @property
    def expectations(self) -> list[Expectation]:
        """Where the probe's finding may be (alternatives); none for a negative."""
        matches = list(EXPECT.finditer(self.header))
        if not matches:
            raise ValueError(f"{self.name}: no '# expect:' header")
        return [Expectation(m["code"], m["file"], int(m["cell"]) if m["cell"] else None,
                            tuple(int(n) for n in m["lines"].split(", "))) for m in matches if m["code"]]

    def owns(self, finding: dict) -> bool:
        found = Path(finding["path"]).resolve()
        return found == self.path or (self.path.is_dir() and self.path in found.parents)

    def source(self) -> str:
        """The program a run executes: a notebook's code cells joined in order."""
        if self.path.suffix != ".ipynb":
            return self.header_file.read_text()
        cells = json.loads(self.path.read_text())["cells"]
        return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def probes(here: Path) -> list[Probe]:
    return [Probe(p.resolve()) for p in sorted(here.glob("[pn]_*"))
            if p.is_dir() or p.suffix in (".py", ".ipynb")]


def lint(paths: list[Path]) -> list[dict]:
    """jitlint's findings (JSON objects) on the given paths: its command line, run in this
    process (one process for the whole set: a test runs it in seconds)."""
    from jitlint.cli import main as jitlint_main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = jitlint_main(["check", "--no-cache", "--exit-zero", "--jobs", "1", "--output-format", "json",
                             *map(str, paths)])
    if code != 0:
        raise RuntimeError(f"jitlint failed ({code}): {out.getvalue()[-500:]}")
    return [f for f in json.loads(out.getvalue()) if f["code"] not in NOT_FINDINGS]


@dataclass
class Score:
    probes: int
    found: int
    missed: int
    false: int
    lines: list[str]

    @property
    def recall(self) -> float:
        return self.found / (self.found + self.missed) if self.found + self.missed else 1.0

    @property
    def precision(self) -> float:
        return self.found / (self.found + self.false) if self.found + self.false else 1.0

    def summary(self) -> str:
        return (f"probes {self.probes}: found {self.found}, missed {self.missed}, false {self.false}; "
                f"recall {self.recall:.2f}, precision {self.precision:.2f}")


def score(here: Path) -> Score:
    """jitlint's recall over the ``p_`` probes and precision over all its findings.  Each
    directory probe is linted as its own project (its own run, its root the directory), the
    single-file probes and notebooks together in one run."""
    everything = probes(here)
    findings = lint([p.path for p in everything if not p.path.is_dir()])
    for probe in everything:
        if probe.path.is_dir():
            findings += lint([probe.path])
    result = Score(len(everything), 0, 0, 0, [])
    for probe in everything:
        mine = [f for f in findings if probe.owns(f)]
        expected = probe.expectations
        hits = [f for f in mine if any(e.matches(probe, f) for e in expected)]
        if expected and not hits:
            result.missed += 1
            result.lines.append(f"MISS  {probe.name}: " + " or ".join(e.describe() for e in expected))
        result.found += bool(hits)
        for f in mine:
            if f not in hits:
                result.false += 1
                cell = f"[cell {f['cell']}]" if f.get("cell") else ""
                result.lines.append(f"FALSE {probe.name}{cell}:{Path(f['path']).name}:{f['line']}: "
                                    f"{f['code']} {f['message'][:100]}")
    return result


def score_main(here: Path) -> int:
    """The command line of a probe set's score.py: ``[--show]``."""
    result = score(here)
    if "--show" in sys.argv:
        print("\n".join(result.lines))
    print(result.summary())
    return 0


def run_forked(probe: Probe, before: Callable[[], None] = lambda: None,
               measure: Callable[[], dict] = dict) -> dict:
    """Run one probe in a forked child (stdout captured, stderr dropped): ``{"status": "ok"}``
    or ``{"status": "raised", "type": ..., "line": ...}`` (the innermost frame in the probe's
    own files), with its ``stdout`` and whatever ``measure()`` returns after the run.
    ``before()`` runs in the child first (to start counting)."""
    read, write = os.pipe()
    out_read, out_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.close(out_read)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(out_write, 1)
        os.dup2(devnull, 2)
        own = probe.path if probe.path.is_dir() else probe.path.parent
        sys.path.insert(0, str(own))
        os.chdir(own)
        try:
            before()
            if probe.path.suffix == ".ipynb":
                code = compile(probe.source(), str(probe.path), "exec")
                exec(code, {"__name__": "__main__"})  # noqa: S102 - running the probe is the measurement
            else:
                runpy.run_path(str(probe.header_file), run_name="__main__")
            result = {"status": "ok"}
        except BaseException as error:  # noqa: BLE001 - the probe's outcome is the measurement
            frames = [f for f in traceback.extract_tb(error.__traceback__)
                      if Path(f.filename) == probe.path or probe.path in Path(f.filename).parents]
            result = {"status": "raised", "type": type(error).__name__,
                      "line": frames[-1].lineno if frames else None}
        try:
            result.update(measure())
        except BaseException as error:  # noqa: BLE001
            result["measure_error"] = repr(error)
        sys.stdout.flush()
        os.write(write, json.dumps(result).encode())
        os._exit(0)
    os.close(write)
    os.close(out_write)
    with os.fdopen(out_read, errors="replace") as pipe:
        stdout = pipe.read()
    with os.fdopen(read) as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    result = json.loads(data) if data else {"status": "crashed"}
    result["stdout"] = stdout
    return result


def import_libraries() -> None:
    """JAX and the libraries the probes use, imported once before the forks."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import equinox  # noqa: F401
    import flax.linen  # noqa: F401
    import flax.nnx  # noqa: F401
    import jax  # noqa: F401
