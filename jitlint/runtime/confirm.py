"""``jitlint --confirm``: run the user's code and give each static finding a verdict.

Static analysis guesses; this measures.  Files with findings that can run as scripts (and files
named explicitly) are each run in a subprocess under ``bootstrap.py``; with ``--run COMMAND``
the user's own entry point is run once instead, instrumented through ``sitecustomize``.  Every
compile is attributed to the findings it belongs to (see ``sites.py``), and recompilations that
no finding explains become runtime-only ``JIT900`` findings.

The parent never imports JAX: it only spawns subprocesses and reads their JSON reports.
"""

from __future__ import annotations

import ast
import json
import os
import shlex
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional, Sequence, TextIO

from jitlint.config import Settings
from jitlint.engine import Diagnostic
from jitlint.source import decode_source, read_source
from jitlint.runtime.attribution import (Evidence, Runtime, compiles_of, recompilations, times,
                                         verdict)
from jitlint.runtime.runner import RunResult, run_command, run_script
from jitlint.runtime.sites import build_sites, line_specs, real
from jitlint.suppression import file_is_suppressed, line_suppresses

RUNTIME_ONLY_CODE = "JIT900"
PLATFORMS = ("cpu", "gpu", "tpu")
TEST_FILE_NAMES = ("conftest.py",)


@dataclass
class Options:
    python: str = sys.executable
    platform: str = "cpu"
    timeout: float = 120.0
    command: Optional[list[str]] = None  # --run
    jobs: int = 1
    progress: Optional[TextIO] = None
    max_memory: Optional[int] = None  # bytes of resident memory per run (--max-memory)
    cwd: Optional[str] = None  # where the --run command runs (default: the current directory)


@dataclass
class Confirmation:
    runtime: dict[Diagnostic, Runtime] = field(default_factory=dict)
    runtime_only: list[Diagnostic] = field(default_factory=list)  # JIT900, also in ``runtime``
    runs: list[RunResult] = field(default_factory=list)

    def diagnostics(self, static: Sequence[Diagnostic]) -> list[Diagnostic]:
        return sorted([*static, *self.runtime_only], key=lambda d: (d.path, d.line, d.column, d.code))


@dataclass
class _Plan:
    """One run: a script/module (script mode) or the user's command (--run)."""

    label: str
    cwd: str
    target: Optional[list[str]] = None  # [SCRIPT] or ["-m", MODULE]; None for --run
    covers: frozenset[str] = frozenset()  # real paths whose failure this run answers for


def confirm(diagnostics: Sequence[Diagnostic], files: Sequence[str], explicit: Sequence[str],
            settings: Settings, options: Options) -> Confirmation:
    """``files``: every linted file; ``explicit``: the files named on the command line (run
    even without findings, so that runtime-only recompilations show in them too)."""
    sites = build_sites(diagnostics, settings.extra_jit_functions)
    not_run: dict[str, str] = {}
    if options.command is not None:
        plans = [_Plan(" ".join(options.command), options.cwd or os.getcwd(), None,
                       frozenset(real(f) for f in files))]
    else:
        plans, not_run = _plan_scripts(diagnostics, explicit)
    result = Confirmation()
    with tempfile.TemporaryDirectory(prefix="jitlint-lines-") as tmp:
        lines_file = os.path.join(tmp, "lines.json")
        Path(lines_file).write_text(json.dumps(line_specs(sites)), encoding="utf-8")
        result.runs = _execute(plans, options, lines_file)

    evidence = Evidence()
    for run in result.runs:
        for report in run.reports:
            evidence.reports.append(report)
            evidence.compiles.append(compiles_of(report))
    failures = {}
    owner = {}
    for plan, run in zip(plans, result.runs):
        failure = run.failure(options.timeout)
        for path in plan.covers:
            owner[path] = run
            if failure is not None:
                failures[path] = (failure, run.stderr_tail)
    for site in sites:
        failure, stderr = failures.get(site.path, (None, None))
        runtime = verdict(site, evidence, failure, stderr, sites)
        if runtime.verdict.startswith("raised") and site.path in owner:
            owner[site.path].explained = True
        if site.path in not_run and not runtime.compiles and not runtime.calls \
                and not runtime.verdict.startswith("raised"):
            runtime = Runtime("not run", None, None, None, not_run[site.path])
        result.runtime[site.diagnostic] = runtime

    linted = {real(f): f for f in files}
    for found in recompilations(zip(evidence.reports, evidence.compiles), sites):
        diagnostic = _runtime_only(found, linted, settings)
        if diagnostic is not None and diagnostic not in result.runtime:
            result.runtime_only.append(diagnostic)
            result.runtime[diagnostic] = Runtime("confirmed", found.compiles, None, found.reason,
                                                 f"compiled {times(found.compiles, 'compiled')}")
    return result


# ---------------------------------------------------------------------------- planning
def _plan_scripts(diagnostics: Sequence[Diagnostic], explicit: Sequence[str]):
    with_findings = {}
    for d in diagnostics:
        with_findings.setdefault(real(d.path), d.path)
    candidates = dict(with_findings)
    for path in explicit:
        candidates.setdefault(real(path), path)
    plans, not_run = [], {}
    for key, path in candidates.items():
        why_not = _why_not_runnable(key)
        if why_not is not None:
            not_run[key] = why_not
            continue
        package_root, module = _module_name(key)
        if module is not None:
            plans.append(_Plan(f"python -m {module}", package_root, ["-m", module], frozenset({key})))
        else:
            plans.append(_Plan(f"python {path}", os.path.dirname(key), [key], frozenset({key})))
    return plans, not_run


def _why_not_runnable(path: str) -> Optional[str]:
    """None if the file can run as a script, else why not (it becomes the 'not run' detail)."""
    name = os.path.basename(path)
    if name.lower().endswith(".ipynb"):
        return "a notebook; count its compiles in Jupyter with %load_ext jitlint"
    if name in TEST_FILE_NAMES or name.startswith("test_") or name.endswith("_test.py"):
        return "a test module; drive it with --run 'python -m pytest FILE'"
    try:
        tree = ast.parse(decode_source(read_source(path)))
    except Exception:
        return "it cannot be parsed"
    if _runs_code(tree.body):
        return None
    return "no top-level code runs when it is executed as a script; drive it with --run COMMAND"


def _runs_code(body: Sequence[ast.stmt]) -> bool:
    """Top-level code that does something: a call, a loop, a ``with``, ``if __name__ ...``;
    not just imports, definitions and assignments (a library module)."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            if _is_main_guard(stmt.test) or _runs_code(stmt.body) or _runs_code(stmt.orelse):
                return True
        elif isinstance(stmt, ast.Try):
            if _runs_code(stmt.body) or _runs_code(stmt.orelse) or _runs_code(stmt.finalbody):
                return True
        elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
            return True
        elif isinstance(stmt, ast.Expr) and not isinstance(stmt.value, ast.Constant):
            return True
    return False


def _is_main_guard(test: ast.expr) -> bool:
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__")


def _module_name(path: str) -> tuple[str, Optional[str]]:
    """(directory to run from, dotted module name) for a file inside a package."""
    directory = os.path.dirname(path)
    if not os.path.exists(os.path.join(directory, "__init__.py")):
        return directory, None
    parts = [os.path.splitext(os.path.basename(path))[0]]
    while os.path.exists(os.path.join(directory, "__init__.py")):
        parts.append(os.path.basename(directory))
        directory = os.path.dirname(directory)
    if parts[0] == "__main__":
        parts = parts[1:]
    return directory, ".".join(reversed(parts))


# ---------------------------------------------------------------------------- running
def _environment(options: Options) -> dict:
    env = dict(os.environ)
    env["JAX_PLATFORMS"] = options.platform
    env.pop("PYTHONSTARTUP", None)
    return env


def _execute(plans: Sequence[_Plan], options: Options, lines_file: str) -> list[RunResult]:
    env = _environment(options)
    total = len(plans)

    def run(indexed) -> RunResult:
        index, plan = indexed
        if options.progress is not None and (total > 1 or options.command is not None):
            options.progress.write(f"jitlint: confirm [{index + 1}/{total}] running {plan.label}\n")
            options.progress.flush()
        if plan.target is None:
            assert options.command is not None
            return run_command(_command_argv(options), plan.cwd, env, options.timeout, lines_file,
                               plan.label, options.max_memory)
        return run_script(options.python, plan.target, plan.cwd, env, options.timeout, lines_file,
                          plan.label, options.max_memory)

    jobs = max(1, min(options.jobs, total))
    if jobs == 1:
        return [run(item) for item in enumerate(plans)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(run, enumerate(plans)))


def _command_argv(options: Options) -> list[str]:
    """The --run command; a leading ``python`` means the --python interpreter."""
    argv = list(options.command or [])
    if argv and argv[0] in ("python", "python3"):
        argv[0] = options.python
    return argv


def parse_command(text: str) -> list[str]:
    return shlex.split(text)


def find_python(python: Optional[str]) -> Optional[str]:
    if python is None:
        return sys.executable
    if os.sep in python or (os.altsep and os.altsep in python):
        return python if os.access(python, os.X_OK) else None
    return shutil.which(python)


# ---------------------------------------------------------------------------- JIT900
def _runtime_only(found, linted: dict[str, str], settings: Settings) -> Optional[Diagnostic]:
    """A JIT900 at the call site (or, if that file was not linted, at the definition)."""
    from jitlint.rules import get_rule

    rule = get_rule(RUNTIME_ONLY_CODE)
    if found.call_file in linted:
        key, line = found.call_file, found.call_line
    elif found.def_file in linted:
        key, line = found.def_file, found.def_line
    else:
        return None
    path = linted[key]
    if rule is None or not settings.is_enabled(RUNTIME_ONLY_CODE, path):
        return None
    try:
        text = decode_source(read_source(path))
    except Exception:
        return None
    source_lines = text.splitlines()
    line_text = source_lines[line - 1] if 0 < line <= len(source_lines) else ""
    if file_is_suppressed(text) or line_suppresses(line_text, RUNTIME_ONLY_CODE):
        return None
    column = len(line_text) - len(line_text.lstrip()) + 1
    end_column = len(line_text.rstrip()) + 1
    if found.def_file == key:
        where = f"line {found.def_line}"
    else:
        relative = os.path.relpath(found.def_file)
        where = f"{found.def_file if relative.startswith('..') else relative}:{found.def_line}"
    unnamed = found.name in ("<unnamed function>", "<unknown>")
    if found.library is not None:
        what = f"{found.library}'s jit of {'a callable object' if unnamed else found.name} (made at {where})"
    elif unnamed:
        what = f"jit of a callable object (made at {where})"
    else:
        what = f"jit({found.name}) (defined at {where})"
    message = (f"{what} compiled {times(found.compiles, 'compiled')} at this call in the "
               f"--confirm run: {found.cause()}")
    return Diagnostic(path, line, column, line, max(end_column, column), rule.code, rule.name,
                      message, rule.severity)


# ---------------------------------------------------------------------------- output
def format_output(output_format: str, diagnostics: Sequence[Diagnostic], confirmation: Confirmation,
                  formats: dict) -> str:
    """JSON formats gain a ``runtime`` object per finding; the others a ``[verdict: ...]`` suffix."""
    runtime = confirmation.runtime
    if output_format in ("json", "json-lines"):
        rows = json_rows(diagnostics, confirmation)
        if output_format == "json":
            return json.dumps(rows, indent=2) + "\n"
        return "".join(json.dumps(row) + "\n" for row in rows)
    marked = [replace(d, message=f"{d.message} [{runtime[d].summary()}]") if d in runtime else d
              for d in diagnostics]
    return formats[output_format](marked)


def json_rows(diagnostics: Sequence[Diagnostic], confirmation: Confirmation) -> list[dict]:
    """Each finding's JSON object, with its ``runtime`` object when it has a verdict."""
    rows = []
    for d in diagnostics:
        row = d.to_dict()
        if d in confirmation.runtime:
            row["runtime"] = confirmation.runtime[d].to_dict()
        rows.append(row)
    return rows


def report_failures(confirmation: Confirmation, timeout: float, stream: TextIO) -> None:
    """Each failed run, with the tail of its stderr, unless a finding predicted the error."""
    for run in confirmation.runs:
        failure = run.failure(timeout)
        if failure is None or run.explained:
            continue
        stream.write(f"jitlint: confirm: `{run.label}` (in {run.cwd}) failed: {failure}\n")
        tail = run.stderr_tail.strip()
        if tail:
            stream.write("".join(f"  | {line}\n" for line in tail.splitlines()[-15:]))
