"""The engine: find files, read and parse them, run the enabled rules, position and filter
their findings.  It knows nothing of the CLI or of output formats.
"""

from __future__ import annotations

import ast
import io
import os
import stat
import sys
import tokenize
import warnings
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Iterable, Iterator, Optional, Sequence

import libcst as cst

from jitlint.cache import ResultCache
from jitlint.config import Settings
from jitlint.jitnames import JIT_WORDS
from jitlint.rule import FileContext, Rule
from jitlint.rules import ALL_RULES
from jitlint.semantic import build_model
from jitlint.staticargs import (ModuleSummary, ProjectIndex, absolute, module_name_for, summarize,
                                summarize_path)
from jitlint.suppression import file_is_suppressed, line_suppresses

UNPARSABLE = ALL_RULES["JIT000"]


@dataclass(frozen=True)
class Diagnostic:
    """One finding.  Lines and columns are 1-based; the end is exclusive, as in ruff."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    name: str
    message: str
    severity: str
    # Notebooks only (jitlint/notebook.py): the cell, with line/end_line counted in the cell,
    # and the line in the code cells joined in order (SARIF's line).  None for .py files.
    cell: Optional[int] = None
    absolute_line: Optional[int] = None

    def to_dict(self) -> dict:
        data = asdict(self)
        if self.cell is None:  # the 9 keys of the JSON contract, for a .py file
            del data["cell"], data["absolute_line"]
        return data


@dataclass
class FileResult:
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    internal_error: Optional[str] = None  # a jitlint bug; the CLI exits 2
    summary: Optional[ModuleSummary] = None  # what other linted files may import from this one
    imports: tuple[str, ...] = ()  # for a file not parsed by libcst: what it imports (absolute)
    depends_on: tuple[str, ...] = ()  # other linted modules whose summaries this result used


class SourceError(Exception):
    """The file cannot be turned into text that Python would accept."""

    def __init__(self, reason: str, line: int = 1, column: int = 1) -> None:
        super().__init__(reason)
        self.reason, self.line, self.column = reason, line, column


# ---------------------------------------------------------------------------- files
def iter_python_files(paths: Sequence[str], settings: Settings) -> Iterator[str]:
    """Files to lint: explicit files as given, directories recursed (sorted, excludes pruned)."""
    seen: set[str] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for directory, subdirs, files in os.walk(path):
                subdirs[:] = sorted(d for d in subdirs if not settings.is_excluded(Path(directory, d)))
                for name in sorted(files):
                    candidate = Path(directory, name)
                    if name.endswith((".py", ".pyi", ".ipynb")) and not settings.is_excluded(candidate):
                        key = os.path.normpath(str(candidate))
                        if key not in seen:
                            seen.add(key)
                            yield str(candidate)
        else:
            key = os.path.normpath(raw)
            if key not in seen:  # an explicitly named file is linted even if excluded by pattern
                seen.add(key)
                yield raw


def decode_source(data: bytes) -> str:
    """Bytes -> text as Python reads it: BOM, PEP 263 coding cookie, else UTF-8."""
    if b"\0" in data:
        raise SourceError("binary file (contains NUL bytes), not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if "invalid or missing encoding declaration" in str(exc.msg):
            encoding = "utf-8"  # no cookie, and the first lines are not UTF-8: say where
        else:
            raise SourceError(f"bad encoding declaration: {exc.msg}", exc.lineno or 1) from exc
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(f"not valid {encoding} text (byte {data[exc.start]:#04x}); save it as "
                          f"UTF-8 or declare its encoding with a PEP 263 coding comment",
                          line, column) from exc
    except LookupError as exc:
        raise SourceError(f"unknown encoding {encoding!r}") from exc
    return text[1:] if text.startswith("\ufeff") else text


def read_source(path: str) -> bytes:
    """A file's bytes; OSError if it cannot be read.  Only regular files are read: a named
    pipe, socket or device called ``*.py`` (or a link to one) would block or never end."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)  # non-blocking: opening a FIFO with no writer returns at once
    with open(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(0, "not a regular file (a named pipe, socket or device)")
        return handle.read()


# ---------------------------------------------------------------------------- linting
def lint_file(path: str, settings: Settings, prefilter: bool = True,
              index: Optional[ProjectIndex] = None) -> FileResult:
    try:
        data = read_source(path)
    except OSError as exc:
        result = FileResult(path)
        result.diagnostics.append(_unparsable(path, f"cannot read file: {exc.strerror or exc}"))
        return result
    if path.lower().endswith(".ipynb"):
        from jitlint.notebook import lint_notebook
        return lint_notebook(data, path, settings, prefilter, index)
    return lint_source(data, path, settings, prefilter, index=index)


def lint_source(data: bytes, path: str, settings: Settings, prefilter: bool = True,
                line_noqa: bool = True, index: Optional[ProjectIndex] = None) -> FileResult:
    """Lint one file's bytes.  ``line_noqa=False`` leaves ``# noqa`` comments to the caller
    (the flake8 plugin: flake8 applies them itself, and ``--disable-noqa`` must work).
    ``index`` describes the other linted modules (lint_files builds it); without it a file is
    linted with what it shows itself."""
    result = FileResult(path)
    try:
        text = decode_source(data)
        tree = _check_syntax(text, path)
    except SourceError as exc:
        if settings.is_enabled(UNPARSABLE.code, path):
            result.diagnostics.append(_unparsable(path, exc.reason, exc.line, exc.column))
        return result
    if file_is_suppressed(text):
        return result
    rules = [rule() for code, rule in ALL_RULES.items() if settings.is_enabled(code, path)]
    if not rules or (prefilter and not _may_have_findings(text, tree, settings, index, rules)):
        # Not parsed: keep what it imports, so the project index can tell whether it calls a
        # jitted function of another linted module without saying jit itself.
        result.imports = _imported_names(tree, *module_name_for(path))
        return result
    try:
        module = cst.parse_module(text)
    except RecursionError:
        if settings.is_enabled(UNPARSABLE.code, path):
            result.diagnostics.append(_unparsable(path, "code nested too deeply for libcst to parse"))
        return result
    except cst.ParserSyntaxError as exc:
        # Python accepts it but libcst's grammar does not (very new syntax).
        if settings.is_enabled(UNPARSABLE.code, path):
            result.diagnostics.append(_unparsable(
                path, f"libcst cannot parse this file: {exc.message}", exc.raw_line, exc.raw_column + 1))
        return result
    try:
        result.diagnostics = _run_rules(module, text, path, settings, rules, line_noqa, index, result)
    except RecursionError:
        if settings.is_enabled(UNPARSABLE.code, path):
            result.diagnostics = [_unparsable(path, "code nested too deeply for jitlint to analyse")]
    except Exception as exc:  # a bug in a rule must not stop the other files
        result.internal_error = f"{type(exc).__name__}: {exc}"
    return result


def _check_syntax(text: str, path: str) -> ast.Module:
    """Python's own parser decides what is valid Python; its messages are the clearest."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes etc.
            return ast.parse(text, filename=path)
    except SyntaxError as exc:
        raise SourceError(f"syntax error: {exc.msg}", exc.lineno or 1, exc.offset or 1) from exc
    except (ValueError, RecursionError, MemoryError) as exc:
        raise SourceError(f"cannot parse: {exc}") from exc


def _may_have_findings(text: str, tree: ast.Module, settings: Settings,
                       index: Optional[ProjectIndex] = None, rules: Sequence[Rule] = ()) -> bool:
    """Every rule is about jit: a file that names no jit-like function has nothing to report
    (nor a jitted function of another linted module, which it may call without saying jit).
    A rule about code that runs outside jit names its own words (``Rule.prefilter_words``).

    The cheap text test comes first; then the words must occur in an identifier, not only in
    comments, strings or docstrings (that spares the libcst parse of ~30% of the lines of the
    JAX corpus that mention jit).
    """
    words = JIT_WORDS + tuple(name.rsplit(".", 1)[-1] for name in settings.extra_jit_functions)
    if index is not None:
        words += index.function_names()
    words += tuple(word for rule in rules for word in rule.prefilter_words)
    if not any(word in text for word in words):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names: tuple[str, ...] = (node.id,)
        elif isinstance(node, ast.Attribute):
            names = (node.attr,)
        elif isinstance(node, ast.alias):
            names = (node.name, node.asname or "")
        else:
            continue
        if any(word in name for name in names for word in words):
            return True
    return False


def _run_rules(module: cst.Module, text: str, path: str, settings: Settings,
               rules: Sequence[Rule], line_noqa: bool = True, index: Optional[ProjectIndex] = None,
               result: Optional[FileResult] = None) -> list[Diagnostic]:
    module_name, is_package = module_name_for(path)
    ctx = FileContext(path, module, build_model(module, module_name), settings.extra_jit_functions,
                      index)
    violations = [(rule, violation) for rule in rules for violation in rule.check(ctx)]
    if result is not None:
        result.summary = summarize(ctx.model, ctx.jit_applications, path, is_package)
    if not violations:
        return []
    # Positions cost a full code-generation pass: only files with findings pay for it (and
    # only they import libcst's metadata machinery).
    from libcst.metadata import MetadataWrapper, PositionProvider

    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    lines = text.splitlines()
    diagnostics = set()
    for rule, violation in violations:
        span = positions[violation.node]
        line_text = lines[span.start.line - 1] if span.start.line <= len(lines) else ""
        if line_noqa and line_suppresses(line_text, rule.code):
            continue
        diagnostics.add(Diagnostic(path, span.start.line, span.start.column + 1, span.end.line,
                                   span.end.column + 1, rule.code, rule.name, violation.message,
                                   rule.severity))
    return sorted(diagnostics, key=_sort_key)


def _unparsable(path: str, reason: str, line: int = 1, column: int = 1) -> Diagnostic:
    return Diagnostic(path, line, column, line, column, UNPARSABLE.code, UNPARSABLE.name,
                      f"{reason}; the file was not linted", UNPARSABLE.severity)


def _sort_key(d: Diagnostic):
    return (d.path, d.line if d.absolute_line is None else d.absolute_line, d.column, d.code,
            d.message)


# ---------------------------------------------------------------------------- many files
def _lint_batch(batch: Sequence[str], settings: Settings, prefilter: bool,
                index: Optional[ProjectIndex] = None) -> list[FileResult]:
    results = []
    for path in batch:
        if index is not None:
            index.used = set()
        result = lint_file(path, settings, prefilter, index)
        if index is not None:
            result.depends_on = tuple(sorted(index.used))
        results.append(result)
    return results


def lint_files(files: Sequence[str], settings: Settings, jobs: Optional[int] = None,
               prefilter: bool = True, cache: Optional[ResultCache] = None) -> list[FileResult]:
    """Lint files, across processes when there are enough of them to pay for the workers.

    Two phases: every file is linted on its own, which also yields its ModuleSummary; then the
    files that import a jitted function (or a class) from another linted module are linted
    again with the ProjectIndex of those summaries (see jitlint/staticargs.py).  With a cache,
    only files whose inputs changed are linted (see jitlint/cache.py).
    """
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    linter = _CachedLinter(settings, jobs, prefilter, cache)
    results = linter.lint(files, None)
    if len(files) < 2:
        return results
    index = _project_index(files, results)
    # Summarise, in processes, the unparsed modules that other files import (their classes
    # and re-exports), then decide in the parent without parsing anything there.
    wanted = _imported_unsummarised(results, index)
    summaries = linter.summarise([index.paths[name] for name in wanted])
    index.summaries.update((name, summary) for name, summary in zip(wanted, summaries) if summary)
    index.lazy = False
    again = [i for i, result in enumerate(results) if _needs_index(result, index)]
    index.lazy = True  # deeper re-export chains: the workers summarise on first use
    if again:
        redone = linter.lint([files[i] for i in again], index)
        for i, result in zip(again, redone):
            results[i] = result
    return results


class _CachedLinter:
    """Looks results up by content key; lints (in processes) only the misses.

    A phase-2 result (linted with the project index) is reused only while every module it
    used still has the same phase-1 key, i.e. the same path, bytes and settings.
    """

    def __init__(self, settings: Settings, jobs: int, prefilter: bool,
                 cache: Optional[ResultCache]) -> None:
        self.settings, self.jobs, self.prefilter, self.cache = settings, jobs, prefilter, cache
        self.module_keys: dict[str, str] = {}  # module name -> phase-1 key

    def lint(self, files: Sequence[str], index: Optional[ProjectIndex]) -> list[FileResult]:
        if self.cache is None:
            return _lint_many(files, self.settings, self.jobs, self.prefilter, index)
        results: list[Optional[FileResult]] = [None] * len(files)
        keys: list[Optional[str]] = [None] * len(files)
        for i, path in enumerate(files):
            try:
                data = read_source(path)
            except OSError:
                continue  # lint_file reports it
            keys[i] = key = self.cache.key(path, data, b"index" if index else b"")
            if index is None:
                self.module_keys[module_name_for(path)[0]] = key
            results[i] = self._lookup(key, index is not None, path)
        misses = [i for i, result in enumerate(results) if result is None]
        fresh = _lint_many([files[i] for i in misses], self.settings, self.jobs, self.prefilter, index)
        for i, result in zip(misses, fresh):
            results[i] = result
            if keys[i] is not None and result.internal_error is None:
                deps = {name: self.module_keys.get(name) for name in result.depends_on}
                self.cache.put(keys[i], (result, deps))
        return results  # type: ignore[return-value]

    def summarise(self, paths: Sequence[str]) -> list[Optional[ModuleSummary]]:
        """Module summaries of files phase 1 did not parse, from the cache or in processes."""
        summaries: list[Optional[ModuleSummary]] = [None] * len(paths)
        keys: list[Optional[str]] = [None] * len(paths)
        if self.cache is not None:
            for i, path in enumerate(paths):
                try:
                    keys[i] = key = self.cache.key(path, read_source(path), b"summary")
                except OSError:
                    continue
                entry = self.cache.get(key)
                if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == "summary":
                    summaries[i] = entry[1]
        misses = [i for i, summary in enumerate(summaries) if summary is None]
        fresh = _in_processes(_summarise_batch, [paths[i] for i in misses], self.jobs)
        for i, summary in zip(misses, fresh):
            summaries[i] = summary
            if self.cache is not None and keys[i] is not None and summary is not None:
                self.cache.put(keys[i], ("summary", summary))
        return summaries

    def _lookup(self, key: str, with_index: bool, path: str) -> Optional[FileResult]:
        entry = self.cache.get(key) if self.cache is not None else None
        if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], FileResult)):
            return None
        result, deps = entry
        if with_index and any(self.module_keys.get(name) != dep_key for name, dep_key in deps.items()):
            return None
        if result.path != path:  # keys use the absolute path; report the path as given now
            result.path = path
            result.diagnostics = [replace(d, path=path) for d in result.diagnostics]
        return result


def _lint_many(files: Sequence[str], settings: Settings, jobs: int, prefilter: bool,
               index: Optional[ProjectIndex]) -> list[FileResult]:
    return _in_processes(_lint_batch, files, jobs, settings, prefilter, index)


def _in_processes(func, items: Sequence, jobs: int, *args) -> list:
    """``func(batch, *args)`` over batches of ``items``, in processes when there are enough
    items to pay for the workers; results in the order of ``items``."""
    if jobs <= 1 or len(items) < 2 * MIN_FILES_PER_BATCH:
        return func(items, *args) if items else []
    from concurrent.futures import ProcessPoolExecutor  # one file (pre-commit) never pays for it

    batches = [items[i:i + MIN_FILES_PER_BATCH] for i in range(0, len(items), MIN_FILES_PER_BATCH)]
    results: list = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=_process_context()) as pool:
        for batch_result in pool.map(func, batches, *([arg] * len(batches) for arg in args)):
            results.extend(batch_result)
    return results


def _project_index(files: Sequence[str], results: Sequence[FileResult]) -> ProjectIndex:
    index = ProjectIndex()
    claimed: dict[str, int] = {}
    for path, result in zip(files, results):
        if path.lower().endswith(".ipynb"):
            continue  # nobody imports a notebook; it must not shadow the module of its name
        name, _ = module_name_for(path)
        claimed[name] = claimed.get(name, 0) + 1
        index.paths[name] = path
        if result.summary is not None:
            index.summaries[name] = result.summary
    for name, count in claimed.items():
        if count > 1:  # two files claim one module name: trust neither
            del index.paths[name]
            index.summaries.pop(name, None)
    return index


def _imported_names(tree: ast.Module, module: str, is_package: bool) -> tuple[str, ...]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = absolute("." * node.level + (node.module or ""), module, is_package)
            names.update(f"{base}.{alias.name}" if base else alias.name for alias in node.names)
    return tuple(sorted(names))


def _imported_unsummarised(results: Sequence[FileResult], index: ProjectIndex) -> list[str]:
    """Linted modules without a summary that some linted file imports from."""
    wanted: set[str] = set()
    for result in results:
        imports = result.summary.imports if result.summary is not None else result.imports
        for qualname in imports:
            parts = qualname.split(".")
            for cut in range(len(parts), 0, -1):
                module = ".".join(parts[:cut])
                if module in index.paths:
                    if module not in index.summaries:
                        wanted.add(module)
                    break
    return sorted(wanted)


def _needs_index(result: FileResult, index: ProjectIndex) -> bool:
    """Whether a file may use another linted module's jitted functions or classes."""
    if result.internal_error or any(d.code == UNPARSABLE.code for d in result.diagnostics):
        return False
    summary = result.summary
    if summary is None:  # not parsed: it never said jit; does it import a jitted function?
        if not index.function_names():
            return False
        module, _ = module_name_for(result.path)
        return any(index.function(name) is not None
                   or index.provides(name, module, jitted_only=True) for name in result.imports)
    return any(index.provides(name, summary.module, jitted_only=not summary.static_jit)
               or index.function(name) is not None for name in summary.imports)


def _summarise_batch(paths: Sequence[str]) -> list[Optional[ModuleSummary]]:
    return [summarize_path(path) for path in paths]


MIN_FILES_PER_BATCH = 16


def _process_context():
    """fork is cheapest, but forking a process that runs JAX's threads can deadlock (jitlint's
    own API may be called from such a process, e.g. a test suite): then use forkserver."""
    import multiprocessing

    if sys.platform != "linux" or "jax" in sys.modules:
        context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "forkserver")
        if context.get_start_method() == "forkserver":
            context.set_forkserver_preload(["jitlint.engine"])
        return context
    return multiprocessing.get_context("fork")


def all_diagnostics(results: Iterable[FileResult]) -> list[Diagnostic]:
    return sorted((d for r in results for d in r.diagnostics), key=_sort_key)
