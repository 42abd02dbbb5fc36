"""flake8 adapter: ``flake8 --select JIT`` runs jitlint's engine on each file.

Registered as the ``JIT`` entry point of the ``flake8.extension`` group.  The adapter only
translates: it feeds flake8's lines to ``engine.lint_source`` and yields its diagnostics with
flake8's 0-based column.  Selection (``--select``, ``--extend-ignore``, ``per-file-ignores``)
and ``# noqa`` comments are flake8's job here, so jitlint's own line-level noqa is switched
off (otherwise ``flake8 --disable-noqa`` could not show a suppressed finding); the file-level
``# jitlint: noqa``, which flake8 does not know, is still honoured.  Which functions count as
jit comes from ``[tool.jitlint] extra-jit-functions`` in the nearest pyproject.toml and from
flake8's ``--jitlint-extra-jit-functions`` option.  Calls into other modules of the file's
project are checked as ``jitlint check`` checks them.

flake8 runs the plugin file by file in several worker processes.  So that the project index and
the summaries are not built again in each of them, the files of the run (jitlint's files under
flake8's paths, with the same settings) are linted once, as ``jitlint check`` lints them
(engine.lint_files, in processes), and the findings stored in ``.jitlint_cache`` next to the
config (``SharedRun``): the first worker to need them builds them under a lock, the others wait
and read them.  The entry is keyed by the paths, sizes and mtimes of those files and of the
modules of their projects, and each file's findings are used only if flake8's bytes are the
bytes that were linted; any other file (stdin, a file the run did not cover, one changed since)
is linted alone with its project's index (engine.lint_in_project), its imports' summaries read
from the same cache; so is every file when the cache cannot be locked (no ``fcntl``, a read-only
directory).  ``flake8 -v`` logs each build.
"""

from __future__ import annotations

import ast
import hashlib
import io
import logging
import os
import pickle
import subprocess
import sys
import tokenize
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Optional, Sequence

from jitlint import __version__
from jitlint.config import Settings, load_settings
from jitlint.cache import CACHE_DIR_NAME, ResultCache, loads
from jitlint.engine import Diagnostic, iter_python_files, lint_files, lint_in_project, project_files
from jitlint.notebook import is_notebook
from jitlint.rules import ALL_RULES

LOG = logging.getLogger("flake8.jitlint")  # flake8 -v shows it


@lru_cache(maxsize=4096)
def _settings_for(directory: str, extra: tuple[str, ...]) -> Settings:
    base = load_settings(None, Path(directory))
    # Every default rule runs, and the opt-in ones [tool.jitlint] extend-select names; flake8
    # decides what is shown.
    return replace(base, select=("JIT",), ignore=(), extend_select=base.extend_select, per_file_ignores=(),
                   extra_jit_functions=base.extra_jit_functions + extra)


@lru_cache(maxsize=64)
def _cache_for(settings: Settings) -> ResultCache:
    """The same cache as ``jitlint check`` (summaries of the modules a file imports)."""
    return ResultCache(settings.root / CACHE_DIR_NAME, f"flake8 {settings.fingerprint()}")


def _config_directory(filename: str) -> str:
    """Where a file's settings are looked up from."""
    path: Optional[Path] = Path(filename) if filename not in ("stdin", "-") else None
    if path is not None and path.exists():
        return str(path.resolve().parent)
    return os.getcwd()


# ---------------------------------------------------------------------------- the shared run
@dataclass(frozen=True)
class SharedRun:
    """The findings of a run's files, linted once: normalised absolute path -> (blake2b of the
    bytes linted, their diagnostics, a jitlint bug met on the file or None)."""

    files: dict[str, tuple[str, tuple[Diagnostic, ...], Optional[str]]]

    def result(self, path: str, data: bytes) -> Optional[tuple[tuple[Diagnostic, ...], Optional[str]]]:
        found = self.files.get(_normalised(path))
        if found is None or found[0] != _digest(data):
            return None
        return found[1], found[2]


_RUNS: dict[tuple[Settings, tuple[str, ...]], Optional[SharedRun]] = {}


def shared_run(settings: Settings, paths: tuple[str, ...], extra: tuple[str, ...]) -> Optional[SharedRun]:
    """The run over flake8's ``paths`` for the files with ``settings`` (``extra``: flake8's
    extra jit functions): from this process's memory, else the cache, else built (once across
    processes: ResultCache.shared)."""
    if (settings, paths) not in _RUNS:
        files = [path for path in iter_python_files(list(paths), settings) if not is_notebook(path)
                 and _settings_for(_config_directory(path), extra) == settings]
        cache = _cache_for(settings)
        key = cache.key(str(settings.root), _manifest(files, settings), b"flake8 run")
        run = cache.shared(key, lambda: _build(settings, files)) if files else None
        _RUNS[(settings, paths)] = run if isinstance(run, SharedRun) else None
    return _RUNS[(settings, paths)]


def _manifest(files: Sequence[str], settings: Settings) -> bytes:
    """What the run's findings depend on: its files and the modules of their projects, by
    path, size and mtime."""
    lines = []
    for path in sorted({_normalised(p) for p in [*files, *project_files(files, settings)]}):
        try:
            stat = os.stat(path)
        except OSError:
            continue
        lines.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def _build(settings: Settings, files: Sequence[str]) -> Optional[SharedRun]:
    """Lint the files in a child process: flake8's workers are daemons, which may not start the
    processes engine.lint_files uses; the other workers wait meanwhile."""
    package_parent = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [package_parent, *filter(None, [os.environ.get("PYTHONPATH")])]))
    try:
        proc = subprocess.run([sys.executable, "-c", "from jitlint.flake8_plugin import build_child; "
                                                     "build_child()"],
                              input=pickle.dumps((settings, list(files))), capture_output=True,
                              env=env, check=True)
        run = loads(proc.stdout)
    except Exception as exc:  # each file is then linted alone, as before
        stderr = getattr(exc, "stderr", b"") or b""
        LOG.warning("jitlint: linting the run's %d files at once failed (%s%s); linting file by "
                    "file", len(files), exc, f": {stderr.decode(errors='replace')[-2000:]}" if stderr else "")
        return None
    LOG.info("jitlint: linted the run's %d files at once (project index built once, shared by "
             "flake8's workers)", len(files))
    return run if isinstance(run, SharedRun) else None


def build_child() -> None:
    """The child of _build: (settings, files) pickled on stdin, the SharedRun on stdout."""
    settings, files = pickle.load(sys.stdin.buffer)
    before = {path: _digest_of(path) for path in files}
    results = lint_files(files, settings, cache=_cache_for(settings), line_noqa=False)
    shared: dict = {}
    for path, result in zip(files, results):
        digest = _digest_of(path)
        if digest is not None and digest == before[path]:  # not changed while it was linted
            shared[_normalised(path)] = (digest, tuple(result.diagnostics), result.internal_error)
    sys.stdout.buffer.write(pickle.dumps(SharedRun(shared), protocol=pickle.HIGHEST_PROTOCOL))


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def _digest_of(path: str) -> Optional[str]:
    from jitlint.source import read_source

    try:
        return _digest(read_source(path))
    except OSError:
        return None


def _normalised(path: str) -> str:
    return os.path.normpath(os.path.abspath(path))


# ---------------------------------------------------------------------------- the plugin
def _any_code_selected(options) -> bool:
    """Whether flake8 would show any jitlint code, asked of flake8's own decision engine (select,
    extend-select, ignore, extend-ignore and the plugin defaults; per-file-ignores only narrow)."""
    try:
        from flake8.style_guide import Decision, DecisionEngine
        decider = DecisionEngine(options)
        return any(decider.decision_for(code) is Decision.Selected for code in ALL_RULES)
    except Exception:  # another flake8 than the ones we know: lint, flake8 still filters
        return True


def _as_bytes(lines: Sequence[str]) -> bytes:
    """flake8 hands over decoded lines; encode them back as the file declares (PEP 263)."""
    text = "".join(lines)
    head = "".join(lines[:2]).encode("utf-8", "surrogateescape")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(head).readline)
        return text.encode(encoding.replace("-sig", ""))
    except (SyntaxError, LookupError, UnicodeEncodeError):
        return text.encode("utf-8", "surrogateescape")


class JitChecker:
    name = "jitlint"
    version = __version__

    extra_jit_functions: tuple[str, ...] = ()
    # flake8 runs every installed plugin whatever ``--select`` says and filters the output
    # afterwards; when no JIT code can be shown, linting would be wasted work.
    any_code_selected: bool = True
    paths: tuple[str, ...] = (".",)  # flake8's paths: the run linted once (SharedRun)

    def __init__(self, tree: ast.AST, filename: str, lines: Sequence[str]) -> None:
        self.filename = filename
        self.lines = lines

    @classmethod
    def add_options(cls, option_manager) -> None:
        option_manager.add_option(
            "--jitlint-extra-jit-functions", default="", parse_from_config=True,
            comma_separated_list=True,
            help="jit-like wrappers for jitlint, e.g. mylib.jit (also read from "
                 "[tool.jitlint] extra-jit-functions in pyproject.toml)")

    @classmethod
    def parse_options(cls, options) -> None:
        cls.extra_jit_functions = tuple(getattr(options, "jitlint_extra_jit_functions", None) or ())
        cls.any_code_selected = _any_code_selected(options)
        cls.paths = tuple(getattr(options, "filenames", None) or (".",))

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        if not self.any_code_selected:
            return
        settings = _settings_for(_config_directory(self.filename), self.extra_jit_functions)
        data = _as_bytes(self.lines)
        run = shared_run(settings, self.paths, self.extra_jit_functions) \
            if "-" not in self.paths else None
        found = run.result(self.filename, data) if run is not None else None
        if found is None:
            result = lint_in_project(data, self.filename, settings, cache=_cache_for(settings),
                                     line_noqa=False)
            found = tuple(result.diagnostics), result.internal_error
        diagnostics, internal_error = found
        if internal_error:
            raise RuntimeError(f"jitlint internal error on {self.filename}: {internal_error}")
        for d in diagnostics:
            yield d.line, d.column - 1, f"{d.code} {d.message}", type(self)


