"""The engine: find files, read and parse them, run the enabled rules, position and filter
their findings.  It knows nothing of the CLI or of output formats.
"""

from __future__ import annotations

import ast
import bisect
import gc
import os
import sys
import threading
import warnings
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Iterable, Iterator, Optional, Sequence

import libcst as cst

from jitlint.annotated import without_variable_annotations
from jitlint.cache import ResultCache
from jitlint.callgraph import ModuleCalls, ProjectCalls
from jitlint.config import Settings
from jitlint.gitignore import ignored_below, ignored_files
from jitlint.jitnames import JIT_WORDS
from jitlint.notebook import NotebookError, is_notebook, read_notebook, split_lines
from jitlint.reparse import StatementCache
from jitlint.rule import UNKNOWN_CALLERS, FileContext, Rule, Violation
from jitlint.rules import ALL_RULES
from jitlint.rules._context import UnknownContext, calling_context
from jitlint.semantic import build_model
from jitlint.source import SourceError, decode_source, read_source
from jitlint.project import (ModuleScan, ModuleSummary, ProjectIndex, References, SummaryFailure,
                             build_index, cheap_summary, imported_unsummarised, module_name_for,
                             needs_index, project_modules, project_root, scan_module, with_ast_facts,
                             summarise_batch, summarize, transformed_function_forces,
                             hands_own_function)
from jitlint.suppression import file_is_suppressed, line_suppresses, unknown_noqa_codes

UNPARSABLE = ALL_RULES["JIT000"]


@dataclass(frozen=True)
class Related:
    """A place that shows why a finding holds (the loop, the repeated call site); positions as
    in Diagnostic, ``cell`` in a notebook."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    cell: Optional[int] = None
    # The flagged code runs (and compiles) here rather than at the finding: a loop's call of a
    # helper, the loop that feeds a state back (Violation.repeated_at); ``--confirm`` counts there.
    runs: bool = False


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
    related: tuple[Related, ...] = ()  # the evidence the rule points at (not in the JSON)
    # The opt-in group the finding belongs to (rule.GROUPS: ``unknown-callers``), None for a
    # default finding; in the JSON only when set.
    group: Optional[str] = None

    def to_dict(self) -> dict:
        data = asdict(self)
        del data["related"]
        if self.group is None:
            del data["group"]
        if self.cell is None:  # the 9 keys of the JSON contract, for a .py file
            del data["cell"], data["absolute_line"]
        return data


@dataclass
class FileResult:
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    internal_error: Optional[str] = None  # a jitlint bug; the CLI exits 2
    summary: Optional[ModuleSummary] = None  # what other linted files may import from this one
    references: References = References()  # what it may refer to through imports
    classes_asked: tuple[str, ...] = ()  # other modules' classes whose hashability rules asked
    members_asked: tuple[str, ...] = ()  # other modules' classes whose methods rules asked
    depends_on: tuple[str, ...] = ()  # other linted modules whose summaries this result used
    # Functions (``module.f``, ``module.Class.method``) whose callers in other modules decide
    # findings of this file: their unknown context put a finding in the group unknown-callers.
    unresolved: tuple[str, ...] = ()
    calls: Optional[ModuleCalls] = None  # its calls of project functions, for the call graph
    # Functions of other modules its traced code calls with traced arguments: (qualified name
    # as imported, traced positions, traced keywords, the caller in words); see traced_calls
    traced_calls: tuple[tuple[str, tuple[int, ...], tuple[str, ...], str], ...] = ()
    notes: tuple[str, ...] = ()  # for stderr: e.g. a module left out of the project index


# ---------------------------------------------------------------------------- files
def iter_python_files(paths: Sequence[str], settings: Settings) -> Iterator[str]:
    """Files to lint: directories recursed (sorted; default excludes, ``exclude`` patterns and,
    with ``respect_gitignore``, what git ignores are pruned); explicit files as given, unless
    ``force_exclude`` (pre-commit names every changed file: excludes must still apply)."""
    seen: set[str] = set()
    named = [raw for raw in paths if not Path(raw).is_dir()]
    skipped_named: frozenset[str] = frozenset()
    if settings.force_exclude:
        skipped_named = frozenset(raw for raw in named if _excluded_with_parents(raw, settings))
        if settings.respect_gitignore:
            skipped_named |= ignored_files([raw for raw in named if raw not in skipped_named])
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            ignored = ignored_below(raw) if settings.respect_gitignore else frozenset()
            for directory, subdirs, files in os.walk(path):
                subdirs[:] = sorted(d for d in subdirs if not settings.is_excluded(Path(directory, d))
                                    and os.path.abspath(os.path.join(directory, d)) not in ignored)
                for name in sorted(files):
                    candidate = Path(directory, name)
                    if name.endswith((".py", ".pyi", ".ipynb")) and not settings.is_excluded(candidate) \
                            and os.path.abspath(candidate) not in ignored:
                        key = os.path.normpath(str(candidate))
                        if key not in seen:
                            seen.add(key)
                            yield str(candidate)
        elif raw not in skipped_named:
            key = os.path.normpath(raw)
            if key not in seen:  # named explicitly: linted even if excluded, without force_exclude
                seen.add(key)
                yield raw


def _excluded_with_parents(raw: str, settings: Settings) -> bool:
    """A named file is excluded when it or a directory above it (up to the config's root) is."""
    path = Path(os.path.abspath(raw))
    if settings.is_excluded(path):
        return True
    root = Path(os.path.abspath(settings.root))
    for parent in path.parents:
        if parent == root or root not in parent.parents:
            break
        if settings.is_excluded(parent):
            return True
    return False


# ---------------------------------------------------------------------------- linting
def lint_file(path: str, settings: Settings, prefilter: bool = True,
              index: Optional[ProjectIndex] = None, line_noqa: bool = True) -> FileResult:
    """One file, whatever it holds: a file that cannot be analysed is a JIT000, a jitlint bug
    is ``internal_error`` (the CLI exits 2); neither ever stops the other files."""
    try:
        data = read_source(path)
    except OSError as exc:
        result = FileResult(path)
        result.diagnostics.append(_unparsable(path, f"cannot read file: {exc.strerror or exc}"))
        return result
    return lint_data(data, path, settings, prefilter, index, line_noqa)


def lint_data(data: bytes, path: str, settings: Settings, prefilter: bool = True,
              index: Optional[ProjectIndex] = None, line_noqa: bool = True) -> FileResult:
    """A file's bytes (read from disk, or stdin named ``path``), a notebook or Python, isolated."""
    if is_notebook(path):
        return isolated(path, settings, lambda: lint_notebook(data, path, settings, prefilter, index))
    return isolated(path, settings, lambda: lint_source(data, path, settings, prefilter, line_noqa,
                                                        index))


def isolated(path: str, settings: Settings, lint) -> FileResult:
    """``lint()``, with whatever escapes it turned into this file's result."""
    try:
        return lint()
    except (RecursionError, MemoryError) as exc:
        result = FileResult(path)
        if settings.is_enabled(UNPARSABLE.code, path):
            reason = "too deeply nested" if isinstance(exc, RecursionError) else "too large"
            result.diagnostics.append(_unparsable(path, f"code {reason} for jitlint to analyse"))
        return result
    except Exception as exc:  # a jitlint bug: this file's result says so, the others go on
        return FileResult(path, internal_error=_describe(exc))


def _describe(exc: BaseException) -> str:
    """``Type: message at file:line`` (the innermost frame), for a one-line bug report."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


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
    if not is_notebook(path):  # a notebook's are reported by cell (lint_notebook)
        result.notes = tuple(_unknown_noqa(f"{path}:{line}", code)
                             for line, code in unknown_noqa_codes(text, ALL_RULES))
    if file_is_suppressed(text):
        return result
    rules = [rule() for code, rule in ALL_RULES.items() if settings.is_enabled(code, path, rule.opt_in)]
    # What it refers to in other modules: whether the project index can change its findings
    # (lint_files) is decided from this, also for a file that is not parsed below.
    scan = scan_module(tree, *module_name_for(path), path)
    result.references = scan.references
    result.calls = scan.calls
    if not rules or (prefilter and not _may_have_findings(text, scan, settings, index, rules, tree, path)):
        # What it tells the project index, from the ast it has (else summarised again later)
        result.summary = cheap_summary(tree, text, path, scan)
        return result
    try:
        module = without_variable_annotations(
            cst.parse_module(text) if _STATEMENTS is None else _STATEMENTS.parse(text, tree), text)
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
        result.diagnostics = _run_rules(module, text, path, settings, rules, line_noqa, index, result,
                                        tree)
    except RecursionError:
        if settings.is_enabled(UNPARSABLE.code, path):
            result.diagnostics = [_unparsable(path, "code nested too deeply for jitlint to analyse")]
    except Exception as exc:  # a bug in a rule must not stop the other files
        result.internal_error = _describe(exc)
    return result


_STATEMENTS: Optional[StatementCache] = None  # see reuse_parsed_statements


def reuse_parsed_statements() -> None:
    """From now on, parse only the top-level statements that changed since this process last
    linted them (jitlint/reparse.py): for a process that lints the same buffers after each
    edit (the language server), not for a run over many files."""
    global _STATEMENTS
    if _STATEMENTS is None:
        _STATEMENTS = StatementCache()


# ---------------------------------------------------------------------------- notebooks
def lint_notebook(data: bytes, path: str, settings: Settings, prefilter: bool = True,
                  index: Optional[ProjectIndex] = None) -> FileResult:
    """engine.lint_file for a notebook: lint the joined cells, then locate each finding."""
    try:
        notebook = read_notebook(data)
    except NotebookError as exc:
        result = FileResult(path)
        if settings.is_enabled(UNPARSABLE.code, path):
            result.diagnostics.append(Diagnostic(
                path, exc.line, exc.column, exc.line, exc.column, UNPARSABLE.code, UNPARSABLE.name,
                f"{exc.reason}; the file was not linted", UNPARSABLE.severity))
        return result
    if notebook is None:  # a notebook in another language
        return FileResult(path)
    result = lint_source(notebook.source.encode("utf-8"), path, settings, prefilter, index=index)
    result.notes += tuple(_unknown_noqa(f"{path}:cell {cell}:line {line}", code)
                          for cell, lines in notebook.cells.items()
                          for line, code in unknown_noqa_codes("\n".join(lines), ALL_RULES))
    located = [d for d in map(notebook.locate, result.diagnostics) if notebook.keeps(d)]
    if result.calls is not None:  # the call graph names a notebook's calls by cell too
        result.calls = replace(result.calls, calls=tuple(
            replace(record, cell=cell, line=line) if (cell := notebook.cell_of(record.line)) else record
            for record in result.calls.calls for line in [notebook.line_in_cell(record.line)]))
    if settings.is_enabled(UNPARSABLE.code, path) and not file_is_suppressed(notebook.source):
        for error in notebook.errors:
            located.append(Diagnostic(
                path, error.line, error.column, error.line, error.column, UNPARSABLE.code,
                UNPARSABLE.name, f"{error.reason}; this cell was not linted", UNPARSABLE.severity,
                cell=error.cell, absolute_line=notebook.absolute_line(error.cell, error.line)))
    result.diagnostics = sorted(located, key=lambda d: (d.absolute_line or 0, d.column, d.code,
                                                        d.message))
    return result


def _unknown_noqa(where: str, code: str) -> str:
    return (f"{where}: unknown rule code {code} in `# noqa` (it suppresses nothing; "
            f"`jitlint rules` lists the codes)")


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


def _may_have_findings(text: str, scan: ModuleScan, settings: Settings,
                       index: Optional[ProjectIndex] = None, rules: Sequence[Rule] = (),
                       tree: Optional[ast.Module] = None, path: str = "") -> bool:
    """Every rule is about jit: a file that reaches no jit-like function through its imports
    has nothing to report (nor a jitted function of another linted module, which it may call
    without saying jit).  A rule about code that runs outside jit names the API functions it
    is about (``Rule.prefilter_names``).

    The cheap text tests come first; then the words must occur in an identifier, not only in
    comments, strings or docstrings, and a jit word must belong to a name that may be jit
    (not ``jax.disable_jit`` or a primitive ``pjit_p``): that spares the libcst parse of
    about half the lines of the JAX corpus.
    """
    words = tuple(name.rsplit(".", 1)[-1] for name in settings.extra_jit_functions)
    if index is not None:
        words += index.function_names() + index.wrapper_names() + index.lax_helper_names()
        if index.traced and path and index.traced_in(module_name_for(path)[0]):
            return True  # traced code of another module calls its functions (phase 2)
    if any(word in text for word in words) and scan.names_any(words):
        return True
    if any(word in text for word in JIT_WORDS) and scan.reaches_jit():
        return True
    worded = [rule for rule in rules if all(word in text for word in rule.prefilter_words)]
    api_names = {name for rule in worded for name in rule.prefilter_names}
    if any(name.rpartition(".")[2] in text for name in api_names) and scan.reaches_any(api_names) \
            and any(scan.reaches_any(rule.prefilter_names) and rule.prefilter_text(text) for rule in worded):
        return True
    methods = {name: position for rule in rules for name, position in rule.prefilter_methods.items()}
    if tree is not None and methods and scan.reaches_any({name.rpartition(".")[0] for name in methods}) \
            and hands_own_function(tree, {name.rpartition(".")[2]: position for name, position in methods.items()}):
        return True
    transforms = {name for rule in rules for name in rule.prefilter_transforms}
    handed = frozenset(name.rpartition(".")[2] for rule in rules for name in rule.prefilter_handed_functions)
    return tree is not None and scan.reaches_any(transforms) and transformed_function_forces(
        tree, frozenset(name.rpartition(".")[2] for name in transforms), handed)


def _run_rules(module: cst.Module, text: str, path: str, settings: Settings,
               rules: Sequence[Rule], line_noqa: bool = True, index: Optional[ProjectIndex] = None,
               result: Optional[FileResult] = None, tree: Optional[ast.Module] = None
               ) -> list[Diagnostic]:
    module_name, is_package = module_name_for(path)
    ctx = FileContext(path, module, build_model(module, module_name), settings.extra_jit_functions,
                      index)
    violations = [(rule, violation, _group(ctx, rule, violation)) for rule in rules
                  for violation in rule.check(ctx)]
    if result is not None:
        result.summary = with_ast_facts(summarize(ctx.model, ctx.jit_applications, path, is_package,
                                                  ctx.resolver), tree, text, module)
        result.classes_asked = tuple(sorted(ctx.classes_asked))
        result.members_asked = tuple(sorted(ctx.members_asked))
        result.traced_calls = tuple(sorted((name, tuple(sorted(positions)), tuple(sorted(keywords)), caller)
                                           for name, (positions, keywords, caller) in ctx.traced_calls.items()))
        result.unresolved = tuple(sorted({q for _, _, unknown in violations if unknown is not None
                                          for q in unknown.qualnames}))
    violations = [(rule, violation, unknown) for rule, violation, unknown in violations
                  if unknown is None or settings.group_enabled(UNKNOWN_CALLERS, path)]
    if not violations:
        return []
    nodes = [node for _, violation, _ in violations
             for node in (violation.node, *(node for node, _ in violation.related))]
    positions = _positions(module, ctx.model, nodes, text, tree)
    lines = text.splitlines()
    diagnostics = set()
    for rule, violation, unknown in violations:
        span = positions[violation.node]
        line_text = lines[span.start.line - 1] if span.start.line <= len(lines) else ""
        if line_noqa and line_suppresses(line_text, rule.code):
            continue
        related = tuple(Related(where.start.line, where.start.column + 1, where.end.line,
                                where.end.column + 1, message,
                                runs=violation.runs_at_repeat and node is violation.repeated_at)
                        for node, message in violation.related for where in [positions[node]])
        message, group = violation.message, None
        if unknown is not None:
            message, group = f"{message} ({UNKNOWN_CALLERS}: {unknown.evidence()})", UNKNOWN_CALLERS
        diagnostics.add(Diagnostic(path, span.start.line, span.start.column + 1, span.end.line,
                                   span.end.column + 1, rule.code, rule.name, message,
                                   rule.severity, related=related, group=group))
    separate = {rule.code for rule in rules if rule.separate_findings}
    return _one_per_line(sorted(diagnostics, key=_sort_key), separate)


def _one_per_line(diagnostics: list[Diagnostic], separate: set[str]) -> list[Diagnostic]:
    """One finding per rule and line: ``float(p[0]) + float(p[1])`` or ``src[mask], dst[mask]``
    is one mistake to fix, so the later ones become related locations of the first (except for
    the rules whose findings stand alone: Rule.separate_findings)."""
    kept: list[Diagnostic] = []
    first: dict[tuple[str, int, Optional[str]], int] = {}
    for diagnostic in diagnostics:
        key = (diagnostic.code, diagnostic.line, diagnostic.group)
        if diagnostic.code in separate or key not in first:
            first.setdefault(key, len(kept))
            kept.append(diagnostic)
            continue
        index = first[key]
        also = Related(diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column,
                       f"also on this line: {diagnostic.message}")
        kept[index] = replace(kept[index], related=(*kept[index].related, also))
    return kept


def _group(ctx: FileContext, rule: Rule, violation: Violation) -> Optional[UnknownContext]:
    """What a finding of a rule about eager, repeated code rests on when its function's
    callers are not seen (then it belongs to the group unknown-callers)."""
    return calling_context(ctx).unknown_context(violation.repeated_at or violation.node) \
        if rule.calling_context else None


def _positions(module: cst.Module, model, nodes: Sequence[cst.CSTNode], text: str,
               tree: Optional[ast.Module]):
    """The libcst CodeRange of each of ``nodes``.

    libcst's PositionProvider generates the code of the whole module (with a visit of every
    node besides): half the lint of a 1,000-line file with one finding, every time an editor
    asks (the language server).  Only the top-level statements that hold the nodes are
    generated here, each shifted to the line where Python's ast starts it; where a statement
    cannot be matched with certainty (its first line of code differs), the whole module is.
    Only files with findings get here (and import libcst's metadata machinery)."""
    from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

    def whole():
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)

    firsts = _first_lines(module, tree) if tree is not None else None
    body = [model.span(statement) for statement in module.body]
    if firsts is None or any(span is None for span in body):
        return whole()
    starts = [span[0] for span in body]
    by_statement: dict[int, list[cst.CSTNode]] = {}
    for node in nodes:
        span = model.span(node)
        k = bisect.bisect_right(starts, span[0]) - 1 if span is not None else -1
        if k < 0 or span[1] > body[k][1]:
            return whole()
        by_statement.setdefault(k, []).append(node)
    lines = split_lines(text)
    positions = {}
    for k, found in by_statement.items():
        statement = module.body[k]
        part = module.with_changes(header=(), body=(statement,), footer=())
        decorators = getattr(statement, "decorators", ())
        first = 1 + len(statement.leading_lines) + (len(decorators[0].leading_lines) if decorators else 0)
        code = split_lines(part.code)
        if not (first <= len(code) and firsts[k] <= len(lines) and code[first - 1] == lines[firsts[k] - 1]):
            return whole()
        shift = firsts[k] - first
        part_positions = MetadataWrapper(part, unsafe_skip_copy=True).resolve(PositionProvider)
        for node in found:
            span = part_positions[node]
            positions[node] = CodeRange(CodePosition(span.start.line + shift, span.start.column),
                                        CodePosition(span.end.line + shift, span.end.column))
    return positions


def _first_lines(module: cst.Module, tree: ast.Module) -> Optional[list[int]]:
    """The line where each top-level statement of ``module`` starts (its first decorator),
    from the ast of the same text; None when the two do not pair up."""
    firsts, i = [], 0
    for statement in module.body:
        if i >= len(tree.body):
            return None
        node = tree.body[i]
        firsts.append(min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))]))
        i += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
    return firsts if i == len(tree.body) else None


def _unparsable(path: str, reason: str, line: int = 1, column: int = 1) -> Diagnostic:
    return Diagnostic(path, line, column, line, column, UNPARSABLE.code, UNPARSABLE.name,
                      f"{reason}; the file was not linted", UNPARSABLE.severity)


def _sort_key(d: Diagnostic):
    return (d.path, d.line if d.absolute_line is None else d.absolute_line, d.column, d.code,
            d.message)


# ---------------------------------------------------------------------------- many files
def _lint_batch(batch: Sequence[str], settings: Settings, prefilter: bool,
                index: Optional[ProjectIndex] = None, line_noqa: bool = True) -> list[FileResult]:
    results = []
    for path in batch:
        if index is not None:
            index.used, index.left_out = set(), {}
        with fewer_collections():
            result = lint_file(path, settings, prefilter, index, line_noqa)
        if index is not None:
            result.depends_on = tuple(sorted(index.used))
            result.notes += tuple(_left_out(path, reason) for path, reason in index.left_out.items())
        results.append(result)
    return results


# The garbage collector's thresholds while one file of a run is linted.  The parsers and the
# analyses allocate millions of objects that live as long as their file and form few cycles;
# Python's default (a young collection every 700 allocations, each survivor traversed again
# as it is promoted) cost about a tenth of a cold run's CPU (docs/performance.md).  Cycles
# are still collected: the young generation every 50,000 allocations, the older ones once
# the defaults are back, after the file.
FILE_GC_THRESHOLD = (50_000, 1000, 1000)


_COLLECTOR_LOCK = threading.Lock()  # threads that lint (`jitlint mcp`) share one collector
_collector_users = 0
_collector_thresholds = gc.get_threshold()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """FILE_GC_THRESHOLD while the block runs; the thresholds from before when the last
    thread linting leaves its block."""
    global _collector_users, _collector_thresholds
    with _COLLECTOR_LOCK:
        if _collector_users == 0:
            _collector_thresholds = gc.get_threshold()
            gc.set_threshold(*FILE_GC_THRESHOLD)
        _collector_users += 1
    try:
        yield
    finally:
        with _COLLECTOR_LOCK:
            _collector_users -= 1
            if _collector_users == 0:
                gc.set_threshold(*_collector_thresholds)


def _left_out(path: str, reason: str) -> str:
    return f"{path}: left out of the project index ({reason}); calls into it are not checked"


def _crashed_lint(path: str, reason: str) -> FileResult:
    return FileResult(path, internal_error=f"the process linting it died ({reason})")


def lint_files(files: Sequence[str], settings: Settings, jobs: Optional[int] = None,
               prefilter: bool = True, cache: Optional[ResultCache] = None,
               line_noqa: bool = True) -> list[FileResult]:
    """Lint files, across processes when there are enough of them to pay for the workers.

    Two phases: every file is linted on its own, which also yields its ModuleSummary; then the
    files that import a jitted function (or a class) from another linted module are linted
    again with the ProjectIndex of those summaries (see jitlint/staticargs.py).  With a cache,
    only files whose inputs changed are linted (see jitlint/cache.py).  ``line_noqa`` as in
    lint_source (a cache must hold results of one value only: the flake8 plugin's has its own).
    """
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    linter = _CachedLinter(settings, jobs, prefilter, cache, line_noqa)
    results = linter.lint(files, None)
    unresolved = sorted({name for r in results for name in r.unresolved})
    if not files or not (unresolved or any(r.references.names for r in results)):
        return results
    # The index holds every module of the files' projects, not only the files named: a file
    # gets the same findings whether it is named alone (pre-commit, flake8) or found in a tree.
    index = build_index([(path, result.summary) for path, result in zip(files, results)]
                        + [(path, None) for path in project_files(files, settings)])
    # Summarise, in processes, the unparsed modules that other files import (their classes
    # and re-exports), then decide in the parent without parsing anything there.
    _summarise_imported(linter, index, results)
    index.lazy = False
    specs: dict = {}
    again = [i for i, result in enumerate(results) if _needs_index(result, index, specs)]
    index.traced = traced_calls(results, index)
    index.lazy = True  # deeper re-export chains: the workers summarise on first use
    if index.traced:  # functions other modules' traced code calls: analysed in their module
        modules = {name.rpartition(".")[0] for name in index.traced}
        again = sorted({*again, *(i for i, path in enumerate(files) if module_name_for(path)[0] in modules)})
    if unresolved:  # findings resting on unknown callers: ask the project's call graph
        index.callers = _caller_verdicts(unresolved, files, results, index, linter)
        again = sorted({*again, *(i for i, result in enumerate(results)
                                  if any(name in index.callers for name in result.unresolved))})
    for _ in range(TRACED_HOPS):
        if not again:
            break
        redone = linter.lint([files[i] for i in again], index)
        for i, result in zip(again, redone):
            results[i] = result
        # A helper analysed with traced parameters may pass the tracers on to a third module
        # (train.py's jitted step -> model.py's loss -> layers.py): lint that one again too.
        before = index.traced
        index.lazy = False
        after = traced_calls(results, index)
        index.lazy = True
        changed = {name.rpartition(".")[0] for name in set(before) ^ set(after)
                   | {name for name in after if before.get(name) != after[name]}}
        index.traced = after
        again = [i for i, path in enumerate(files) if module_name_for(path)[0] in changed]
    _report_summary_problems(files, results, linter)
    return results


TRACED_HOPS = 3  # phase-2 rounds: tracers followed through up to 3 modules after the jitted one


def traced_calls(results: Sequence[FileResult], index: ProjectIndex
                 ) -> dict[str, tuple[tuple[int, ...], tuple[str, ...], str]]:
    """ProjectIndex.traced: the files' calls of other modules' functions with traced arguments
    from traced code (FileResult.traced_calls), each callee resolved to the module that defines
    it (through re-exports), its traced positions and keywords joined over the callers (any
    one traced call runs the body on tracers); the first caller (in sorted order) as evidence."""
    joined: dict[str, tuple[set[int], set[str], str]] = {}
    for result in results:
        for name, positions, keywords, caller in result.traced_calls:
            where = index.definition(name)
            if where is None or where.rpartition(".")[0] not in index.paths:
                continue
            known = joined.setdefault(where, (set(), set(), caller))
            known[0].update(positions)
            known[1].update(keywords)
    return {name: (tuple(sorted(positions)), tuple(sorted(keywords)), caller)
            for name, (positions, keywords, caller) in sorted(joined.items())}


def _caller_verdicts(unresolved: Sequence[str], files: Sequence[str], results: Sequence[FileResult],
                     index: ProjectIndex, linter: "_CachedLinter") -> dict[str, tuple[str, str]]:
    """How the functions ``unresolved`` run, from their callers across the project (its modules
    not linted in this run are scanned too, from the cache when it has them): only those the
    call graph shows."""
    linted = {os.path.normpath(os.path.abspath(path)) for path in files}
    others = [path for path in index.paths.values() if os.path.normpath(os.path.abspath(path)) not in linted]
    modules = [r.calls for r in results if r.calls is not None]
    modules += [calls for calls in linter.scan_calls(others) if calls is not None]
    graph = ProjectCalls(modules)
    return {name: verdict for name in unresolved if (verdict := graph.verdict(name)) is not None}


def lint_in_project(data: bytes, path: str, settings: Settings, cache: Optional[ResultCache] = None,
                    prefilter: bool = True, line_noqa: bool = True) -> FileResult:
    """One file's bytes (stdin, or flake8's lines), with the index of its project, so that it
    gets the findings ``lint_files`` gives it in a tree.  Summaries of the modules it imports
    come from the cache when it has them."""
    def lint(index: Optional[ProjectIndex]) -> FileResult:
        if is_notebook(path):
            return isolated(path, settings, lambda: lint_notebook(data, path, settings, prefilter, index))
        return isolated(path, settings, lambda: lint_source(data, path, settings, prefilter,
                                                            line_noqa, index))

    result = lint(None)
    if result.internal_error or not (result.unresolved or result.references.names):
        return result
    index = build_index([(path, result.summary)]
                        + [(module, None) for module in project_files([path], settings)])
    linter = _CachedLinter(settings, 1, prefilter, cache, line_noqa)
    _summarise_imported(linter, index, [result])
    index.lazy = False
    again = _needs_index(result, index)
    index.lazy = True
    if result.unresolved:
        index.callers = _caller_verdicts(result.unresolved, [path], [result], index, linter)
        again = again or bool(index.callers)
    if again:
        index.used, index.left_out = set(), {}
        result = lint(index)
        result.notes += tuple(_left_out(p, reason) for p, reason in index.left_out.items())
    result.notes += tuple(linter.notes)
    return result


def _summarise_imported(linter: "_CachedLinter", index: ProjectIndex, results: Sequence[FileResult],
                        depth: int = 4) -> None:
    """Summarise (in processes, or from the cache) the modules of the index that the results'
    imports reach, then the modules their re-exports (``from .steps import shift`` in an
    ``__init__``) reach, ``depth`` links deep: the decision which files need the index is then
    made without parsing anything in this process.  Only the classes a file's rules asked
    about (FileResult.classes_asked) need the full summaries of their modules."""
    everything = [r.references.names for r in results]
    with_classes = [r.classes_asked + r.members_asked for r in results]
    lazy, index.lazy = index.lazy, False
    try:
        for imports, classes in ((everything, False), (with_classes, True)):
            names = {name for names in imports for name in names}
            seen, tried = set(names), set()
            for _ in range(depth):
                wanted = [name for name in imported_unsummarised([names], index, classes)
                          if name not in tried]
                tried.update(wanted)
                summaries = linter.summarise([index.paths[name] for name in wanted], classes)
                index.summaries.update((name, summary) for name, summary in zip(wanted, summaries)
                                       if summary)
                # Only the re-exports of the names imported: jax/__init__ re-exports hundreds.
                names = {target for name in names for target in index.reexports(name)} - seen
                seen |= names
                if not names:
                    break
    finally:
        index.lazy = lazy


def project_files(files: Sequence[str], settings: Settings) -> list[str]:
    """The Python modules of the projects the files belong to (project.project_root)."""
    # one file per directory is enough: the root depends only on the directories above it
    by_directory = {os.path.dirname(os.path.abspath(path)): path for path in files}
    roots = {project_root(path) for path in by_directory.values()}  # notebooks' too
    modules: dict[str, str] = {}
    for root in sorted(roots):
        modules.update(_modules_under(str(root), settings))
    return list(modules.values())


_MODULES_UNDER: dict[tuple[str, Settings], dict[str, str]] = {}


def _modules_under(root: str, settings: Settings) -> dict[str, str]:
    """project_modules, walked once per process (the flake8 plugin lints file after file)."""
    key = (root, settings)
    if key not in _MODULES_UNDER:
        _MODULES_UNDER[key] = project_modules(
            Path(root), lambda directory: iter_python_files([str(directory)], settings))
    return _MODULES_UNDER[key]


def forget_project_layout() -> None:
    """Walk the projects' directories again on the next lint: a long-running process (the
    language server) calls it when files may have been created, deleted or saved."""
    _MODULES_UNDER.clear()


def _report_summary_problems(files: Sequence[str], results: list[FileResult],
                             linter: "_CachedLinter") -> None:
    """Notes and bugs met while summarising modules for the index go on the files' results
    (the first result carries the notes: they are about the run, printed once)."""
    by_path = {os.path.normpath(path): result for path, result in zip(files, results)}
    for path, error in linter.internal_errors.items():
        result = by_path.get(os.path.normpath(path))
        if result is None:  # a module of the project that was not linted in this run
            linter.notes.append(f"{path}: internal error {error} (please report it)")
        elif result.internal_error is None:
            result.internal_error = error
    if linter.notes and results:
        results[0].notes += tuple(linter.notes)


class _CachedLinter:
    """Looks results up by content key; lints (in processes) only the misses.

    A phase-2 result (linted with the project index) is reused only while every module it
    used still has the same phase-1 key, i.e. the same path, bytes and settings.
    """

    def __init__(self, settings: Settings, jobs: int, prefilter: bool,
                 cache: Optional[ResultCache], line_noqa: bool = True) -> None:
        self.settings, self.jobs, self.prefilter, self.cache = settings, jobs, prefilter, cache
        self.line_noqa = line_noqa
        self.module_keys: dict[str, str] = {}  # module name -> phase-1 key
        self.index: Optional[ProjectIndex] = None
        self.notes: list[str] = []
        self.internal_errors: dict[str, str] = {}  # path -> a jitlint bug met while summarising

    def lint(self, files: Sequence[str], index: Optional[ProjectIndex]) -> list[FileResult]:
        self.index = index or self.index
        if self.cache is None:
            return _lint_many(files, self.settings, self.jobs, self.prefilter, index, self.line_noqa)
        results: list[Optional[FileResult]] = [None] * len(files)
        keys: list[Optional[str]] = [None] * len(files)
        for i, path in enumerate(files):
            try:
                data = read_source(path)
            except OSError:
                continue  # lint_file reports it
            keys[i] = key = self.cache.key(path, data, _index_key(index, path))
            if index is None:
                self.module_keys[module_name_for(path)[0]] = key
            results[i] = self._lookup(key, index is not None, path)
        misses = [i for i, result in enumerate(results) if result is None]
        fresh = _lint_many([files[i] for i in misses], self.settings, self.jobs, self.prefilter, index,
                           self.line_noqa)
        for i, result in zip(misses, fresh):
            results[i] = result
            if keys[i] is not None and result.internal_error is None:
                deps = {name: self.module_key(name) for name in result.depends_on}
                self.cache.put(keys[i], (result, deps))
        return results  # type: ignore[return-value]

    def module_key(self, name: str) -> Optional[str]:
        """The phase-1 key of a module: of its bytes now, also for a module of the project that
        was not linted in this run (a cached result that used it must see it change)."""
        if name not in self.module_keys and self.index is not None and name in self.index.paths \
                and self.cache is not None:
            path = self.index.paths[name]
            try:
                self.module_keys[name] = self.cache.key(path, read_source(path), b"")
            except OSError:
                return None
        return self.module_keys.get(name)

    def summarise(self, paths: Sequence[str], classes: bool = False) -> list[Optional[ModuleSummary]]:
        """Module summaries of files phase 1 did not parse (with ``classes``, full ones: see
        project.summarize_path), from the cache or in processes.  One that cannot be made is
        None, and ``notes`` / ``internal_errors`` say why."""
        summaries: list[Optional[ModuleSummary]] = [None] * len(paths)
        keys: list[Optional[str]] = [None] * len(paths)
        if self.cache is not None:
            for i, path in enumerate(paths):
                try:
                    keys[i] = key = self.cache.key(path, read_source(path),
                                                   b"summary+classes" if classes else b"summary")
                except OSError:
                    continue
                entry = self.cache.get(key)
                if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == "summary":
                    summaries[i] = entry[1]
        misses = [i for i, summary in enumerate(summaries) if summary is None]
        fresh = _in_processes(summarise_batch, [paths[i] for i in misses], self.jobs, classes,
                              crashed=lambda path, reason: (None, SummaryFailure(reason, bug=True)))
        for i, (summary, failure) in zip(misses, fresh):
            summaries[i] = summary
            if failure is not None and failure.bug:
                self.internal_errors[paths[i]] = \
                    f"while summarising it for the project index: {failure.reason}"
            elif failure is not None:
                self.notes.append(_left_out(paths[i], failure.reason))
            if self.cache is not None and keys[i] is not None and summary is not None:
                self.cache.put(keys[i], ("summary", summary))
        return summaries

    def scan_calls(self, paths: Sequence[str]) -> list[Optional[ModuleCalls]]:
        """The call-graph records of modules phase 1 did not lint, from the cache or in
        processes (None for a file that cannot be read or parsed)."""
        found: list[Optional[ModuleCalls]] = [None] * len(paths)
        keys: list[Optional[str]] = [None] * len(paths)
        if self.cache is not None:
            for i, path in enumerate(paths):
                try:
                    keys[i] = key = self.cache.key(path, read_source(path), b"calls")
                except OSError:
                    continue
                entry = self.cache.get(key)
                if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == "calls":
                    found[i] = entry[1]
        misses = [i for i, calls in enumerate(found) if calls is None]
        fresh = _in_processes(scan_calls_batch, [paths[i] for i in misses], self.jobs,
                              crashed=lambda path, reason: None)
        for i, calls in zip(misses, fresh):
            found[i] = calls
            if self.cache is not None and keys[i] is not None and calls is not None:
                self.cache.put(keys[i], ("calls", calls))
        return found

    def _lookup(self, key: str, with_index: bool, path: str) -> Optional[FileResult]:
        entry = self.cache.get(key) if self.cache is not None else None
        if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], FileResult)):
            return None
        result, deps = entry
        if with_index and any(self.module_key(name) != dep_key for name, dep_key in deps.items()):
            return None
        if result.path != path:  # keys use the absolute path; report the path as given now
            result.path = path
            result.diagnostics = [replace(d, path=path) for d in result.diagnostics]
        return result


def _index_key(index: Optional[ProjectIndex], path: str = "") -> bytes:
    """What of the index a phase-2 cache key holds besides the modules it used (checked per
    entry): the call graph's verdicts, which come from modules no entry names, and how traced
    code of other modules calls the functions of this one (``traced``: from its callers'
    bytes, which its entry does not name either)."""
    if index is None:
        return b""
    key = b"index" + repr(sorted(index.callers.items())).encode() if index.callers else b"index"
    if index.traced:
        module = module_name_for(path)[0]
        key += repr([item for item in index.traced.items() if item[0].rpartition(".")[0] == module]).encode()
    return key


def scan_calls_batch(paths: Sequence[str]) -> list[Optional[ModuleCalls]]:
    found = []
    for path in paths:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(read_source(path))
            found.append(scan_module(tree, *module_name_for(path), path).calls)
        except Exception:  # unreadable, not Python, too deep: its own lint says so
            found.append(None)
    return found


MIN_FILES_PER_BATCH = 16


def _lint_many(files: Sequence[str], settings: Settings, jobs: int, prefilter: bool,
               index: Optional[ProjectIndex], line_noqa: bool = True) -> list[FileResult]:
    # Linted again with the index, files are few but each is parsed and analysed whole (the
    # prefilter let them through the first time): a batch per worker, not batches of 16
    # files that would leave them all to one process (the corpus: 13 files, 3 CPU-s).
    per_batch = len(files) // jobs if index is not None and jobs > 1 else MIN_FILES_PER_BATCH
    return _in_processes(_lint_batch, files, jobs, settings, prefilter, index, line_noqa,
                         crashed=_crashed_lint, per_batch=max(per_batch, 1))


def _in_processes(func, items: Sequence, jobs: int, *args, crashed,
                  per_batch: int = MIN_FILES_PER_BATCH) -> list:
    """``func(batch, *args)`` over batches of ``per_batch`` items, in processes when there are
    at least two batches (enough items to pay for the workers); results in the order of
    ``items``.

    ``func`` isolates each item itself; what it cannot catch (a worker killed by a signal, out
    of memory, a result that cannot be sent back) fails the whole batch.  Such a batch is run
    again one item per process, so one bad file costs only its own result: ``crashed(item,
    reason)``."""
    if jobs <= 1 or len(items) < 2 * per_batch:
        return func(items, *args) if items else []
    from concurrent.futures import ProcessPoolExecutor  # one file (pre-commit) never pays for it

    batches = [items[i:i + per_batch] for i in range(0, len(items), per_batch)]
    done: list[Optional[list]] = [None] * len(batches)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=_process_context()) as pool:
        futures = [pool.submit(func, batch, *args) for batch in batches]
        for i, future in enumerate(futures):
            try:
                done[i] = future.result()
            except Exception:  # the batch is retried item by item below
                pass
    results: list = []
    for batch, batch_results in zip(batches, done):
        if batch_results is None:
            batch_results = [_alone(func, item, args, crashed) for item in batch]
        results.extend(batch_results)
    return results


def _alone(func, item, args: tuple, crashed):
    """``func([item], *args)[0]`` in a process of its own; ``crashed(item, reason)`` if it dies."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1, mp_context=_process_context()) as pool:
        try:
            return pool.submit(func, [item], *args).result()[0]
        except Exception as exc:
            return crashed(item, f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)


def _needs_index(result: FileResult, index: ProjectIndex, specs: Optional[dict] = None) -> bool:
    if result.internal_error or any(d.code == UNPARSABLE.code for d in result.diagnostics):
        return False
    return needs_index(result.references, result.classes_asked, index, specs, result.members_asked)



def _process_context():
    """fork is cheapest, but forking a process that runs other threads can deadlock (JAX's,
    when jitlint's API is called from a test suite; a server's workers, ``jitlint mcp``):
    then use forkserver."""
    import multiprocessing

    if sys.platform != "linux" or "jax" in sys.modules or threading.active_count() > 1:
        context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "forkserver")
        if context.get_start_method() == "forkserver":
            context.set_forkserver_preload(["jitlint.engine"])
        return context
    return multiprocessing.get_context("fork")


def all_diagnostics(results: Iterable[FileResult]) -> list[Diagnostic]:
    return sorted((d for r in results for d in r.diagnostics), key=_sort_key)
