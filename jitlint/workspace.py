"""What ``jitlint mcp`` does for a coding agent, without the protocol: check, explain, fix and
confirm, on files under the roots it was given or on an in-memory buffer, with results made of
the JSON output's objects.  jitlint/mcp_server.py binds these to MCP tools; this module imports
neither the SDK nor JAX (``confirm`` runs JAX in subprocesses).

Every path a request names must lie inside a root once symlinks are resolved (relative paths
are taken from the first root), and so must every file found under a named directory: a link
that leads out of the roots is left out.  Nothing is written but the files ``fix`` is asked to
write.  A request that cannot be served as asked raises ``RequestError`` with the reason.
"""

from __future__ import annotations

import codecs
import io
import os
import tokenize
from pathlib import Path
from typing import Optional, Sequence

from jitlint.config import ConfigError, Settings, load_settings, selector, with_overrides
from jitlint.engine import FileResult, all_diagnostics, iter_python_files, lint_files, \
    lint_in_project
from jitlint.fixes import FixResult, fix_data, fix_files, fix_offers, fixable_codes
from jitlint.output import fixable, json_object
from jitlint.rules import find_rule
from jitlint.runtime.attribution import compile_counts, compiles_of
from jitlint.runtime.command import DEFAULT_PLATFORM, DEFAULT_TIMEOUT, parse_size
from jitlint.runtime.confirm import Options, confirm, find_python, json_rows, parse_command
from jitlint.runtime.runner import RunResult
from jitlint.source import decode_source

CONFIRM_JOBS = 4  # runs at a time, as the CLI's default


class RequestError(ValueError):
    """A request that cannot be served as asked; the message says why, for the agent to act on."""


class Workspace:
    """The directories (``roots``) an agent may have jitlint read, fix and run."""

    def __init__(self, roots: Sequence[str] = ()) -> None:
        roots = list(roots) or [os.getcwd()]
        for root in roots:
            if not os.path.isdir(root):
                raise RequestError(f"{root}: not a directory")
        self.roots = [os.path.realpath(root) for root in roots]

    # ------------------------------------------------------------------------ paths
    def resolve(self, path: str) -> str:
        """``path`` made absolute (from the first root), if it lies inside a root."""
        if not path:
            raise RequestError("an empty path")
        absolute = os.path.normpath(os.path.join(self.roots[0], os.path.expanduser(path)))
        if not self.contains(absolute):
            raise RequestError(f"{path}: outside the directories this server may touch "
                               f"({', '.join(self.roots)}); start it as `jitlint mcp DIR...` "
                               f"to allow others")
        return absolute

    def contains(self, path: str) -> bool:
        real = os.path.realpath(path)
        return any(os.path.commonpath([real, root]) == root for root in self.roots)

    def _existing(self, path: str) -> str:
        resolved = self.resolve(path)
        if not os.path.exists(resolved):
            raise RequestError(f"{path}: no such file or directory")
        return resolved

    def settings(self, start: str, select: Optional[Sequence[str]],
                 ignore: Optional[Sequence[str]]) -> Settings:
        """The [tool.jitlint] settings that apply at ``start``, with the request's selection."""
        try:
            return with_overrides(load_settings(None, Path(start)), _codes(select), _codes(ignore))
        except ConfigError as exc:
            raise RequestError(str(exc)) from None

    def files(self, paths: Sequence[str], settings: Settings) -> tuple[list[str], list[str]]:
        """The Python files under ``paths`` (already resolved), and a warning for each found
        file left out because a link leads out of the roots."""
        files, warnings = [], []
        for path in iter_python_files(paths, settings):
            if self.contains(path):
                files.append(path)
            else:
                warnings.append(f"{path}: left out: it links outside the directories this "
                                f"server may touch")
        if not files and not warnings:
            warnings.append("no Python files found under the given path(s) (*.py, *.pyi, *.ipynb; "
                            "excludes and .gitignore apply)")
        return files, warnings

    def _target(self, paths: Optional[Sequence[str]], source: Optional[str],
                filename: Optional[str]) -> tuple[Optional[list[str]], Optional[str]]:
        """(resolved paths, None) or (None, the buffer's resolved filename)."""
        if source is not None:
            if paths:
                raise RequestError("give `paths`, or `source` with its `filename`, not both")
            if not filename:
                raise RequestError("`source` needs a `filename`: the file the buffer is (for the "
                                   "config, per-file ignores and the findings' path)")
            return None, self.resolve(filename)
        if filename is not None:
            raise RequestError("`filename` names the `source` buffer; give `source` too, or "
                               "name files in `paths`")
        if not paths:
            raise RequestError("give `paths` (files or directories), or a `source` with its "
                               "`filename`")
        return [self._existing(path) for path in paths], None

    # ------------------------------------------------------------------------ tools
    def check(self, paths: Optional[Sequence[str]] = None, source: Optional[str] = None,
              filename: Optional[str] = None, select: Optional[Sequence[str]] = None,
              ignore: Optional[Sequence[str]] = None) -> dict:
        """Lint files or a buffer: ``{"findings": [...], "files": N, "warnings": [...],
        "errors": [...]}``; each finding is the JSON output's object with ``fixable``."""
        resolved, buffer = self._target(paths, source, filename)
        if buffer is not None:
            settings = self.settings(buffer, select, ignore)
            data = _encode(source or "")
            results = [lint_in_project(data, buffer, settings)]
            report = _summary(results, len(results), [])
            sources: Optional[dict] = {buffer: data}
        else:
            settings = self.settings(resolved[0], select, ignore)
            files, warnings = self.files(resolved, settings)
            results = lint_files(files, settings)
            report = _summary(results, len(files), warnings)
            sources = None
        diagnostics = all_diagnostics(results)
        offers = fix_offers(diagnostics, settings, sources)
        fixes = fixable(offers, settings.unsafe_fixes)
        return {"findings": [dict(json_object(d, offers), fixable=d in fixes) for d in diagnostics],
                **report}

    def explain(self, rule: str) -> dict:
        """A rule's documentation (what ``jitlint rule CODE`` prints) and its facts."""
        found = find_rule(rule)
        if found is None:
            raise RequestError(f"unknown rule {rule!r}: give a code such as JIT101 or a name such "
                               f"as jit-of-lambda (`jitlint rules` lists them)")
        return {"code": found.code, "name": found.name, "summary": found.summary,
                "severity": found.severity, "fixable": found.code in fixable_codes(),
                "opt_in": found.opt_in, "documentation": found.doc()}

    def fix(self, paths: Optional[Sequence[str]] = None, source: Optional[str] = None,
            filename: Optional[str] = None, select: Optional[Sequence[str]] = None,
            ignore: Optional[Sequence[str]] = None, write: bool = False) -> dict:
        """The safe fixes, as each changed file's fixed source and unified diff; written back
        only with ``write`` (files only: a buffer's fixed text is returned, never saved)."""
        resolved, buffer = self._target(paths, source, filename)
        if buffer is not None:
            if write:
                raise RequestError("`write` is for files named in `paths`; the fixed `source` "
                                   "comes back in the result, for you to save")
            settings = self.settings(buffer, select, ignore)
            results = [fix_data(_encode(source or ""), buffer, settings)]
            warnings: list[str] = []
        else:
            settings = self.settings(resolved[0], select, ignore)
            files, warnings = self.files(resolved, settings)
            results = [r for r in fix_files(files, settings, write=write) if r.changed]
        return {"files": [_fixed(result, write and buffer is None) for result in results],
                "fixes": sum(len(result.applied) for result in results),
                "warnings": warnings}

    def confirm(self, path: Optional[str] = None, command: Optional[str] = None,
                paths: Optional[Sequence[str]] = None, cwd: Optional[str] = None,
                timeout: Optional[float] = None, max_memory: Optional[str] = None,
                python: Optional[str] = None, platform: Optional[str] = None,
                select: Optional[Sequence[str]] = None,
                ignore: Optional[Sequence[str]] = None) -> dict:
        """EXECUTES CODE: run a script (``path``) or an entry command under ``--confirm``'s
        isolation, and give each finding a runtime verdict; each run's compiles per function."""
        argv, workdir, targets = self._what_to_run(path, command, paths, cwd)
        options = _options(argv, workdir, timeout, max_memory, python, platform)
        settings = self.settings(targets[0], select, ignore)
        files, warnings = self.files(targets, settings)
        results = lint_files(files, settings)
        diagnostics = all_diagnostics(results)
        explicit = [target for target in targets if os.path.isfile(target)]
        confirmation = confirm(diagnostics, files, explicit, settings, options)
        return {"findings": json_rows(confirmation.diagnostics(diagnostics), confirmation),
                "runs": [_run(run, options.timeout) for run in confirmation.runs],
                **_summary(results, len(files), warnings)}

    def _what_to_run(self, path: Optional[str], command: Optional[str],
                     paths: Optional[Sequence[str]], cwd: Optional[str],
                     ) -> tuple[Optional[list[str]], Optional[str], list[str]]:
        """(the command's words or None for a script, where it runs, what to lint)."""
        if (path is None) == (command is None):
            raise RequestError("give a script to run (`path`) or an entry command (`command`), "
                               "one of them")
        if command is None:
            if paths or cwd is not None:
                raise RequestError("`paths` and `cwd` go with `command`; a script (`path`) runs "
                                   "in its own directory and its findings are the ones confirmed")
            script = self._existing(path or "")
            if not os.path.isfile(script) or not script.endswith(".py"):
                raise RequestError(f"{path}: not a Python script (*.py); run anything else as "
                                   f"an entry `command`")
            return None, None, [script]
        try:
            argv = parse_command(command)
        except ValueError as exc:
            raise RequestError(f"command: {exc}") from None
        if not argv:
            raise RequestError("command: empty")
        workdir = self._existing(cwd) if cwd is not None else self.roots[0]
        if not os.path.isdir(workdir):
            raise RequestError(f"{cwd}: not a directory")
        return argv, workdir, [self._existing(p) for p in paths] if paths else [workdir]


# ---------------------------------------------------------------------------- helpers
def _codes(codes: Optional[Sequence[str]]) -> Optional[list[str]]:
    """Codes as the CLI reads them: JIT101 in any case, ALL, or a group name."""
    return None if codes is None else [selector(code) for code in codes]


def _options(argv: Optional[list[str]], workdir: Optional[str], timeout: Optional[float],
             max_memory: Optional[str], python: Optional[str], platform: Optional[str]) -> Options:
    """--confirm's options, as ``jitlint check --confirm`` checks them."""
    interpreter = find_python(python)
    if interpreter is None:
        raise RequestError(f"python: {python}: no such interpreter")
    memory = None
    if max_memory is not None:
        try:
            memory = parse_size(max_memory)
        except ValueError as exc:
            raise RequestError(f"max_memory: {exc}") from None
        if not os.path.isdir("/proc"):
            raise RequestError("max_memory needs /proc (Linux)")
    timeout = DEFAULT_TIMEOUT if timeout is None else timeout
    if timeout <= 0:
        raise RequestError("timeout must be positive")
    return Options(python=interpreter, platform=platform or DEFAULT_PLATFORM, timeout=timeout,
                   command=argv, jobs=CONFIRM_JOBS, max_memory=memory, cwd=workdir)


def _run(run: RunResult, timeout: float) -> dict:
    """One run: how it ended (its failure, unless a finding predicted the error) and the
    compiles of each jitted function at each call site."""
    failure = None if run.explained else run.failure(timeout)
    counts = compile_counts(event for report in run.reports for event in compiles_of(report))
    return {
        "command": run.label, "cwd": run.cwd, "seconds": round(run.seconds, 2),
        "exit_code": run.returncode, "failure": failure,
        "stderr_tail": run.stderr_tail if failure is not None else None,
        "jit_compiles": sum(count.compiles for count in counts),
        "compiles": [{"function": count.name, "compiles": count.compiles,
                      "call": f"{count.call_file}:{count.call_line}",
                      "defined": f"{count.def_file}:{count.def_line}"} for count in counts],
    }


def _encode(text: str) -> bytes:
    """A buffer's text as the bytes of its file: in the encoding its PEP 263 cookie names."""
    data = text.encode("utf-8", "surrogatepass")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise RequestError(f"source: {exc}") from None
    if codecs.lookup(encoding).name in ("utf-8", "utf-8-sig"):
        return data
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise RequestError(f"source: cannot be encoded as its coding cookie says: {exc}") from None


def _summary(results: Sequence[FileResult], files: int, warnings: list[str]) -> dict:
    """How many files were linted, the engine's notes and its internal errors."""
    notes = dict.fromkeys(note for result in results for note in result.notes)
    return {
        "files": files,
        "warnings": [*warnings, *notes],
        "errors": [f"{result.path}: internal error: {result.internal_error} (a bug in jitlint; "
                   f"please report it)" for result in results if result.internal_error],
    }


def _fixed(result: FixResult, write: bool) -> dict:
    return {
        "path": result.path,
        "source": decode_source(result.fixed),
        "diff": result.diff() if result.changed else "",
        "applied": [fix._asdict() for fix in result.applied],
        "written": write and result.changed and result.not_written is None,
        "not_written": result.not_written,
    }
