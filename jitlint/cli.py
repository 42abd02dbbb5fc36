"""The ``jitlint`` command.  Exit codes as ruff: 0 clean, 1 findings, 2 usage/config/internal error."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

from jitlint import __version__
from jitlint.cache import CACHE_DIR_NAME, ResultCache
from jitlint.config import ConfigError, load_settings, selector, with_overrides
from jitlint.engine import all_diagnostics, iter_python_files, lint_files, lint_in_project
from jitlint.fixes import _command as fix_command
from jitlint.output import (FORMATS, JSON_FORMATS, TEXT_FORMATS, fixable, format_fix_reasons,
                            summary_line, write_statistics)
from jitlint.rule import GROUPS
from jitlint.rules import ALL_RULES, find_rule
from jitlint.runtime import command as confirm_command  # imports no JAX

SUBCOMMANDS = ("check", "rules", "rule", "server", "mcp")
EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _code_list(value: str) -> list[str]:
    return [selector(c) for c in value.split(",") if c.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jitlint",
        description="Find JAX jit anti-patterns that recompile on every call or fail at run time.",
        epilog=confirm_command.EPILOG,
    )
    parser.add_argument("--version", action="version", version=f"jitlint {__version__}")
    sub = parser.add_subparsers(dest="command")

    check = sub.add_parser("check", help="lint files and directories (the default command)")
    check.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .)")
    check.add_argument("--output-format", choices=sorted(FORMATS), default="concise")
    check.add_argument("--select", type=_code_list, action="extend", metavar="CODES",
                       help="only these rule codes or prefixes (comma-separated), replacing the config")
    check.add_argument("--extend-select", type=_code_list, action="extend", metavar="CODES")
    check.add_argument("--ignore", type=_code_list, action="extend", metavar="CODES")
    check.add_argument("--extend-ignore", type=_code_list, action="extend", metavar="CODES",
                       dest="ignore", help="the same as --ignore (flake8's and ruff's spelling)")
    check.add_argument("--extend-exclude", action="append", metavar="PATTERN",
                       help="also skip paths matching this pattern (added to the config's exclude)")
    check.add_argument("--respect-gitignore", action=argparse.BooleanOptionalAction, default=None,
                       help="skip files git ignores (default: on, or respect-gitignore in the config)")
    check.add_argument("--force-exclude", action=argparse.BooleanOptionalAction, default=None,
                       help="apply the excludes to files named on the command line too "
                            "(the pre-commit hooks use it: pre-commit names every changed file)")
    check.add_argument("--stdin-filename", metavar="PATH",
                       help="with PATH `-`: the name of the file read from stdin (for the config, "
                            "per-file-ignores, excludes and the output)")
    check.add_argument("--extra-jit-function", action="append", metavar="QUALNAME",
                       dest="extra_jit_functions", help="a jit-like wrapper, e.g. mylib.jit")
    check.add_argument("--config", type=Path, help="a pyproject.toml to read [tool.jitlint] from")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--statistics", action="store_true",
                       help="count findings per rule (in a text format: only the counts)")
    check.add_argument("-j", "--jobs", type=int, default=None,
                       help="processes to use (default: the number of CPUs)")
    check.add_argument("--no-prefilter", action="store_true", help=argparse.SUPPRESS)
    check.add_argument("--no-cache", action="store_true",
                       help="lint every file afresh, without reading or writing the cache")
    check.add_argument("--cache-dir", type=Path, metavar="DIR",
                       help="where to keep the cache (default: .jitlint_cache next to the config)")
    fix_command.add_arguments(check)
    confirm_command.add_arguments(check)

    sub.add_parser("rules", help="list every rule")
    rule = sub.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("code", metavar="CODE", help="a code (JIT101) or a name (jit-of-lambda)")
    sub.add_parser("server", help="run the language server on stdin/stdout (for editors; "
                                  "needs pip install 'jitlint[server]')")
    mcp = sub.add_parser("mcp", help="serve coding agents over the Model Context Protocol (stdio; "
                                     "pip install 'jitlint[mcp]')")
    mcp.add_argument("roots", nargs="*", metavar="DIR",
                     help="the directories the agent may have jitlint read, fix and run "
                          "(default: the current directory)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in SUBCOMMANDS and argv[0] not in ("-h", "--help", "--version")):
        argv.insert(0, "check")
    argv, run_after_dashes = confirm_command.split_command(argv)
    args = build_parser().parse_args(argv)
    args.confirm_command = run_after_dashes
    try:
        if args.command == "rules":
            return _list_rules()
        if args.command == "rule":
            return _show_rule(args.code)
        if args.command == "server":
            from jitlint.server import main as serve

            return serve()
        if args.command == "mcp":
            return _serve_mcp(args.roots)
        return _check(args)
    except BrokenPipeError:  # ``jitlint ... | head``
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("jitlint: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a jitlint bug outside any one file: say so, never a bare traceback
        import traceback

        print(f"jitlint: internal error: {type(exc).__name__}: {exc}\n"
              f"This is a bug in jitlint {__version__}; please report it with the details below.\n"
              f"{''.join(traceback.format_exception(exc)).rstrip()}", file=sys.stderr)
        return EXIT_ERROR


def _list_rules() -> int:
    for code, rule in ALL_RULES.items():
        opt_in = " (opt-in)" if rule.opt_in else ""
        print(f"{code}  {rule.name:<32} {rule.summary}{opt_in}")
    print("\nOpt-in groups (select them by name, e.g. `--extend-select unknown-callers`):")
    for group, what in GROUPS.items():
        codes = ", ".join(code for code, rule in ALL_RULES.items() if rule.calling_context)
        print(f"{group}  {what} ({codes})")
    return EXIT_CLEAN


def _show_rule(code: str) -> int:
    rule = find_rule(code)
    if rule is None:
        print(f"jitlint: error: unknown rule {code!r}; `jitlint rules` lists them", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(rule.doc())
    return EXIT_CLEAN


def _serve_mcp(roots: Sequence[str]) -> int:
    try:
        from jitlint.mcp_server import serve  # the optional extra: imported only here
    except ModuleNotFoundError as exc:
        return _error(str(exc))
    return serve(roots)


def _check(args: argparse.Namespace) -> int:
    paths = args.paths or ["."]
    misused = confirm_command.without_confirm(args)
    if misused:
        return _error(f"{misused} given without --confirm: these options need --confirm (which "
                      f"runs your code); add --confirm or drop them")
    if "-" in paths and (len(paths) > 1 or args.confirm):
        return _error("`-` (read stdin) must be the only path, without --confirm")
    if args.stdin_filename is not None and paths != ["-"]:
        return _error("--stdin-filename needs `-` as the path")
    start = Path(args.stdin_filename) if paths == ["-"] and args.stdin_filename else Path(paths[0])
    try:
        settings = load_settings(args.config, start)
        settings = with_overrides(settings, args.select, args.ignore, args.extend_select,
                                  args.extra_jit_functions, args.extend_exclude,
                                  args.respect_gitignore, args.force_exclude, args.unsafe_fixes)
    except ConfigError as exc:
        return _error(str(exc))
    if paths == ["-"]:
        return _check_stdin(args, settings)

    status = EXIT_CLEAN
    existing = []
    for path in paths:
        if os.path.exists(path):
            existing.append(path)
        else:
            print(f"jitlint: error: {path}: no such file or directory", file=sys.stderr)
            status = EXIT_ERROR

    files = list(iter_python_files(existing, settings))
    if existing and not files:
        print("jitlint: warning: no Python files found under the given path(s) (*.py, *.pyi, "
              "*.ipynb; excludes and .gitignore apply)", file=sys.stderr)
    fixed = fix_command.run(args, files, settings)  # --fix writes, then the files are linted
    if fixed is not None:  # --diff
        return EXIT_ERROR if status == EXIT_ERROR else fixed
    cache = _cache(args, settings)
    results = lint_files(files, settings, jobs=args.jobs, prefilter=not args.no_prefilter,
                         cache=cache)
    status = max(status, _report_problems(results))
    diagnostics = all_diagnostics(results)

    if args.confirm:
        explicit = [path for path in existing if os.path.isfile(path)]
        return confirm_command.run(args, files, explicit, diagnostics, settings, status, FORMATS)
    return _print(args, diagnostics, settings, status, cache=cache)


def _cache(args: argparse.Namespace, settings) -> Optional[ResultCache]:
    if args.no_cache:
        return None
    cache_dir = args.cache_dir or settings.root / CACHE_DIR_NAME
    return ResultCache(cache_dir, f"{settings.fingerprint()} prefilter={not args.no_prefilter}")


def _check_stdin(args: argparse.Namespace, settings) -> int:
    """``jitlint check - --stdin-filename f.py``: an editor's buffer.  With --fix, the fixed
    source goes to stdout (as ruff); with --diff, the diff."""
    path = args.stdin_filename or "-"
    data = sys.stdin.buffer.read()
    if args.stdin_filename and settings.force_exclude and list(iter_python_files([path], settings)) == []:
        if args.fix:
            sys.stdout.buffer.write(data)
        return EXIT_CLEAN
    if args.fix or args.diff:
        from jitlint.fixes import fix_source

        fixed = fix_source(data, path, settings)
        if args.diff:
            sys.stdout.write(fixed.diff() if fixed.changed else "")
            return EXIT_FINDINGS if fixed.changed else EXIT_CLEAN
        sys.stdout.buffer.write(fixed.fixed)
        sys.stdout.flush()
        data = fixed.fixed
        result = lint_in_project(data, path, settings, _cache(args, settings),
                                 prefilter=not args.no_prefilter)
        status = _report_problems([result])
        remaining = len(result.diagnostics)
        if remaining:
            print(f"jitlint: {remaining} finding(s) left after the fixes", file=sys.stderr)
        return max(status, EXIT_FINDINGS if remaining and not args.exit_zero else EXIT_CLEAN)
    cache = _cache(args, settings)
    result = lint_in_project(data, path, settings, cache, prefilter=not args.no_prefilter)
    status = _report_problems([result])
    return _print(args, all_diagnostics([result]), settings, status, {path: data}, cache)


def _report_problems(results) -> int:
    """Internal errors (exit 2) and notes, once each, on stderr."""
    status = EXIT_CLEAN
    notes: dict[str, None] = {}
    for result in results:
        notes.update(dict.fromkeys(result.notes))
        if result.internal_error:
            print(f"jitlint: internal error on {result.path}: {result.internal_error} "
                  f"(please report it)", file=sys.stderr)
            status = EXIT_ERROR
    for note in notes:
        print(f"jitlint: warning: {note}", file=sys.stderr)
    return status


def _print(args: argparse.Namespace, diagnostics, settings, status: int,
           sources: Optional[dict] = None, cache: Optional[ResultCache] = None) -> int:
    """The findings (only their counts with --statistics in a text format, as ruff), then the
    summary line, which is never "All checks passed!" when an error (exit 2) occurred."""
    text_format = args.output_format in TEXT_FORMATS
    offers: dict = {}
    if (text_format and not args.statistics) or args.output_format in JSON_FORMATS or args.show_fixes:
        from jitlint.fixes import fix_offers

        offers = fix_offers(diagnostics, settings, sources, cache)
    if text_format and args.statistics:
        write_statistics(diagnostics, args.output_format)
    elif text_format:
        sys.stdout.write(FORMATS[args.output_format](
            diagnostics, fixable=fixable(offers, settings.unsafe_fixes)))
    elif args.output_format in JSON_FORMATS:
        sys.stdout.write(FORMATS[args.output_format](diagnostics, offers=offers))
    else:
        sys.stdout.write(FORMATS[args.output_format](diagnostics))
    if args.show_fixes:
        (sys.stdout if text_format else sys.stderr).write(
            format_fix_reasons(diagnostics, offers, settings.unsafe_fixes))
    if text_format and not args.statistics and (diagnostics or status != EXIT_ERROR):
        sys.stdout.write(summary_line(diagnostics, offers, settings.unsafe_fixes))
    if args.statistics and not text_format:
        write_statistics(diagnostics, args.output_format)
    if status == EXIT_ERROR:
        return EXIT_ERROR
    if diagnostics and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _error(message: str) -> int:
    print(f"jitlint: error: {message}", file=sys.stderr)
    return EXIT_ERROR
