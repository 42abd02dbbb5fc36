"""Test helpers shared by the test modules: expected-finding marks and real JAX runs."""

from __future__ import annotations

import functools
import json
import os
import re
import select
import site
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

import jitlint
from jitlint.config import Settings
from jitlint.engine import iter_python_files, lint_files
# the imported copy's bootstrap, as --confirm runs it
from jitlint.runtime.runner import BOOTSTRAP

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CHECKOUT_PACKAGE = ROOT / "jitlint"
EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>JIT\d{3}(?:\s*,\s*JIT\d{3})*)")


@dataclass(frozen=True)
class JitlintCopy:
    """A copy of the jitlint package that the tests run: where it lies and what it is."""

    package: Path  # the directory of its __init__.py

    @property
    def installed(self) -> bool:
        """Installed into site-packages (a wheel, as ``pip install jitlint`` installs it)."""
        roots = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
        roots.update(site.getsitepackages())
        return any(self.package.is_relative_to(Path(root).resolve()) for root in roots)

    @property
    def kind(self) -> str:
        if self.package == CHECKOUT_PACKAGE:
            return "this checkout's source tree"
        return "an installed wheel" if self.installed else "another source tree"

    def differences(self) -> list[str]:
        """The checkout's source files that this copy lacks or holds with other contents."""
        if self.package == CHECKOUT_PACKAGE:
            return []
        differ = []
        for source in sorted(CHECKOUT_PACKAGE.rglob("*.py")):
            name = source.relative_to(CHECKOUT_PACKAGE)
            copy = self.package / name
            if not copy.is_file() or copy.read_bytes() != source.read_bytes():
                differ.append(name.as_posix())
        return differ


def imported_copy() -> JitlintCopy:
    """The jitlint that this test process imported."""
    return JitlintCopy(Path(jitlint.__file__).resolve().parent)


@functools.cache
def child_copy() -> JitlintCopy:
    """The jitlint that the processes the tests start import (from a directory outside the
    checkout, in the tests' environment): where the CLI, flake8 and --confirm runs come from."""
    with tempfile.TemporaryDirectory() as neutral:
        proc = subprocess.run([sys.executable, "-c", "import jitlint; print(jitlint.__file__)"],
                              cwd=neutral, capture_output=True, text=True, check=True, timeout=300)
    return JitlintCopy(Path(proc.stdout.strip()).resolve().parent)


def alive(pid: int, grace: float = 60.0) -> bool:
    """Is process ``pid`` still running ``grace`` seconds from now (Linux)?  SIGKILL is
    delivered asynchronously: on a loaded machine a killed process takes a moment to die, and
    a dead one answers at once."""
    deadline = time.monotonic() + grace
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return False
        if state in ("Z", "X"):
            return False
        if time.monotonic() >= deadline:
            return True
        time.sleep(0.05)


REQUIRES = re.compile(r"^# requires: (?P<module>[\w.]+)$", re.M)


def missing_requirement(path: Path) -> Optional[str]:
    """The module a fixture needs (``# requires: torch``) when it is not installed here."""
    import importlib.util

    required = REQUIRES.search(path.read_text(encoding="utf-8"))
    return required["module"] if required and importlib.util.find_spec(required["module"]) is None else None


def expected_findings(path: Path) -> set[tuple[int, str]]:
    """(line, code) pairs marked in a fixture with a trailing ``# expect: JIT101[, ...]``."""
    marks = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            for code in match.group("codes").split(","):
                marks.add((number, code.strip()))
    return marks


def expected_in_group(path: Path) -> set[tuple[int, str]]:
    """The marks of findings in the opt-in group unknown-callers: ``# expect: JIT105
    (unknown-callers)``."""
    return {(line, code) for line, code in expected_findings(path)
            if "(unknown-callers)" in path.read_text(encoding="utf-8").splitlines()[line - 1]}


def actual_findings(paths: Iterable[Path], settings: Settings | None = None, **kwargs):
    settings = settings or Settings(root=ROOT)
    files = list(iter_python_files([str(p) for p in paths], settings))
    return lint_files(files, settings, **kwargs)


def run_counting_compiles(script: Path) -> dict:
    """Run a script for real under the compile-counting bootstrap; its JSON report."""
    return run_all_counting_compiles([script])[script]


# NAME may hold spaces (``<unnamed function>``)
DECLARED_COMPILES = re.compile(r"# runtime: (?P<name>[^\n]+?) compiles (?P<n>\d+) times")


def declared_compiles(script: Path) -> dict[str, int]:
    """``# runtime: NAME compiles N times`` marks: a negative fixture's deliberate compiles."""
    return {m["name"]: int(m["n"]) for m in DECLARED_COMPILES.finditer(script.read_text())}


FORKED_RUNS = Path(__file__).with_name("forked_runs.py")


@dataclass
class ForkedRun:
    returncode: int
    stdout: str
    stderr: str
    report: dict | None  # the bootstrap's report (counting runs that wrote one)


_SERVERS: dict[tuple, tuple[subprocess.Popen, object]] = {}  # environment -> (server, its stderr)


def _fork_server(env: dict) -> tuple[subprocess.Popen, object]:
    """This worker's forked_runs.py server for ``env`` (started at the first batch; it ends
    when the worker does: its standard input closes)."""
    key = tuple(sorted(env.items()))
    server = _SERVERS.get(key)
    if server is None or server[0].poll() is not None:
        stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        proc = subprocess.Popen([sys.executable, str(FORKED_RUNS), str(BOOTSTRAP)], env=env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                text=True, bufsize=1)
        server = _SERVERS[key] = (proc, stderr)
    return server


def _batch_codes(env: dict, jobs_path: Path, timeout: float) -> list[int]:
    """Send a batch to the server; its children's exit codes, once they have all ended."""
    proc, stderr = _fork_server(env)

    def failure(why: str) -> AssertionError:
        proc.kill()
        proc.wait()
        stderr.seek(0)
        return AssertionError(f"{why}:\n{stderr.read()[-3000:]}")

    try:
        proc.stdin.write(f"{jobs_path}\n")
        proc.stdin.flush()
    except BrokenPipeError:
        raise failure("the fork server had ended") from None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    line = proc.stdout.readline() if ready else ""
    if not line:
        raise failure("the fork server ended" if ready else f"no result in {timeout:.0f} s")
    return json.loads(line)


def run_forked(scripts: Iterable[Path], env: dict, counting: bool) -> dict[Path, ForkedRun]:
    """Run each script as ``python [BOOTSTRAP] SCRIPT`` in its directory (under the
    compile-counting bootstrap when ``counting``), two at a time, each in a process forked
    from a server that imported JAX once for this worker (see forked_runs.py): the import is
    most of the cost of a fixture's run."""
    scripts = list(scripts)
    if not scripts:
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        parts = ("stdout", "stderr", "report") if counting else ("stdout", "stderr")
        jobs = [{"script": str(script), **{part: str(Path(tmp) / f"{index}.{part}") for part in parts}}
                for index, script in enumerate(scripts)]
        Path(tmp, "jobs.json").write_text(json.dumps(jobs))
        codes = _batch_codes(env, Path(tmp, "jobs.json"), timeout=300 * len(scripts))
        runs = {}
        for script, job, code in zip(scripts, jobs, codes):
            report = None
            if counting and Path(job["report"]).exists():
                report = json.loads(Path(job["report"]).read_text())
                for event in report["compiles"]:  # the forking process's frame, below the child's
                    for key in ("stack", "made"):
                        if event[key] is not None:
                            event[key] = [f for f in event[key] if f[0] != str(FORKED_RUNS)]
            runs[script] = ForkedRun(code, Path(job["stdout"]).read_text(),
                                     Path(job["stderr"]).read_text(), report)
        return runs


def run_all_outputs(scripts: Iterable[Path], **env: str) -> dict[Path, str]:
    """Each script's stdout, run as ``python SCRIPT`` with JAX on the CPU and ``env`` added to
    the environment; each must exit with code 0."""
    outputs = {}
    for path, run in run_forked(scripts, dict(os.environ, JAX_PLATFORMS="cpu", **env),
                                counting=False).items():
        assert run.returncode == 0, run.stderr[-2000:]
        outputs[path] = run.stdout
    return outputs


def run_all_without_jit(scripts: Iterable[Path]) -> dict[Path, str]:
    """Each script's stdout with ``JAX_DISABLE_JIT=1`` (every call runs the Python body): what
    the code computes when nothing is cached."""
    return run_all_outputs(scripts, JAX_DISABLE_JIT="1")


def run_all_counting_compiles(scripts: Iterable[Path]) -> dict[Path, dict]:
    """``run_counting_compiles`` for many scripts."""
    reports = {}
    for path, run in run_forked(scripts, dict(os.environ, JAX_PLATFORMS="cpu"), counting=True).items():
        if run.report is None:
            raise AssertionError(f"{path} produced no report:\n{run.stderr[-3000:]}")
        reports[path] = dict(run.report, stderr=run.stderr, stdout=run.stdout)
    return reports


def user_function_compiles(report: dict, script: Path, also: Iterable[Path] = ()) -> Counter:
    """Compiles per jitted function defined in ``script`` (eager jnp ops compile too: dropped).

    A callable instance compiles as ``jit(<unnamed function>)``; ``also`` names other files
    (a package the script imports) whose functions count as the user's.
    """
    import ast

    names = {"<lambda>", "<unnamed function>"}
    pmapped: set[str] = set()
    for source in (script, *also):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        names |= {node.name for node in ast.walk(tree)
                  if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        pmapped |= _pmapped_defs(tree)
    counts: Counter = Counter()
    for event in report["compiles"]:
        name = event["fun_name"] or ""
        inner = name[4:-1] if name.startswith("jit(") and name.endswith(")") else name
        if inner == "_fun" and len(pmapped) == 1:
            # jax 0.10.2 runs jax.pmap as a jit of a shard_map: it compiles as jit(_fun)
            inner = next(iter(pmapped))
        if inner in names:
            counts[inner] += 1
    return counts


def _pmapped_defs(tree) -> set[str]:
    """The defs a script gives to ``pmap`` (``@jax.pmap``, ``jax.pmap(f, ...)``)."""
    import ast

    def is_pmap(node) -> bool:
        target = node.func if isinstance(node, ast.Call) else node
        return (isinstance(target, ast.Attribute) and target.attr == "pmap") or \
            (isinstance(target, ast.Name) and target.id == "pmap")

    def is_partial(node) -> bool:
        target = node.func if isinstance(node, ast.Call) else None
        return (isinstance(target, ast.Attribute) and target.attr == "partial") or \
            (isinstance(target, ast.Name) and target.id == "partial")

    # ``update_fn = functools.partial(update_step, ...)``: pmapping the name runs update_step
    partials = {node.targets[0].id: node.value.args[0].id for node in ast.walk(tree)
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and is_partial(node.value) and node.value.args and isinstance(node.value.args[0], ast.Name)}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(is_pmap(d) for d in node.decorator_list):
            found.add(node.name)
        elif isinstance(node, ast.Call) and is_pmap(node) and node.args and isinstance(node.args[0], ast.Name):
            found.add(partials.get(node.args[0].id, node.args[0].id))
    return found
