"""The ``jitlint`` command.  Exit codes as ruff: 0 clean, 1 findings, 2 usage/config/internal error."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

from jitlint import __version__
from jitlint.cache import CACHE_DIR_NAME, ResultCache
from jitlint.config import ConfigError, load_settings, with_overrides
from jitlint.engine import all_diagnostics, iter_python_files, lint_files
from jitlint.fixes import _command as fix_command
from jitlint.output import FORMATS, format_statistics
from jitlint.rules import ALL_RULES, get_rule
from jitlint.runtime import command as confirm_command  # imports no JAX

SUBCOMMANDS = ("check", "rules", "rule")
EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _code_list(value: str) -> list[str]:
    return [c.strip().upper() if c.strip().upper() != "ALL" else "ALL" for c in value.split(",") if c.strip()]


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
    check.add_argument("--extra-jit-function", action="append", metavar="QUALNAME",
                       dest="extra_jit_functions", help="a jit-like wrapper, e.g. mylib.jit")
    check.add_argument("--config", type=Path, help="a pyproject.toml to read [tool.jitlint] from")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--statistics", action="store_true", help="count findings per rule")
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
    rule.add_argument("code", metavar="CODE")
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
        return _check(args)
    except BrokenPipeError:  # ``jitlint ... | head``
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR


def _list_rules() -> int:
    for code, rule in ALL_RULES.items():
        opt_in = " (opt-in)" if rule.opt_in else ""
        print(f"{code}  {rule.name:<32} {rule.summary}{opt_in}")
    return EXIT_CLEAN


def _show_rule(code: str) -> int:
    rule = get_rule(code)
    if rule is None:
        print(f"jitlint: error: unknown rule {code!r}; `jitlint rules` lists them", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(rule.doc())
    return EXIT_CLEAN


def _check(args: argparse.Namespace) -> int:
    paths = args.paths or ["."]
    try:
        settings = load_settings(args.config, Path(paths[0]))
        settings = with_overrides(settings, args.select, args.ignore, args.extend_select,
                                  args.extra_jit_functions)
    except ConfigError as exc:
        print(f"jitlint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR

    status = EXIT_CLEAN
    existing = []
    for path in paths:
        if os.path.exists(path):
            existing.append(path)
        else:
            print(f"jitlint: error: {path}: no such file or directory", file=sys.stderr)
            status = EXIT_ERROR

    files = list(iter_python_files(existing, settings))
    fixed = fix_command.run(args, files, settings)  # --fix writes, then the files are linted
    if fixed is not None:  # --diff
        return EXIT_ERROR if status == EXIT_ERROR else fixed
    cache = None
    if not args.no_cache:
        cache_dir = args.cache_dir or settings.root / CACHE_DIR_NAME
        cache = ResultCache(cache_dir, f"{settings.fingerprint()} prefilter={not args.no_prefilter}")
    results = lint_files(files, settings, jobs=args.jobs, prefilter=not args.no_prefilter,
                         cache=cache)
    diagnostics = all_diagnostics(results)
    for result in results:
        if result.internal_error:
            print(f"jitlint: internal error on {result.path}: {result.internal_error} "
                  f"(please report it)", file=sys.stderr)
            status = EXIT_ERROR

    if args.confirm or args.confirm_run is not None or args.confirm_python is not None \
            or args.confirm_max_memory is not None:
        explicit = [path for path in existing if os.path.isfile(path)]
        return confirm_command.run(args, files, explicit, diagnostics, settings, status, FORMATS)
    sys.stdout.write(FORMATS[args.output_format](diagnostics))
    if args.statistics:
        sys.stdout.write(format_statistics(diagnostics))
    if status == EXIT_ERROR:
        return EXIT_ERROR
    if diagnostics and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN
