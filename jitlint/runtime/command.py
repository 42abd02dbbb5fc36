"""The ``--confirm`` options of ``jitlint check`` and what the CLI does with them."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

CONFIRM_HELP = (
    "EXECUTES YOUR CODE: after linting, run each flagged file that can run as a script (and "
    "each file named explicitly) in a subprocess with compile counters, and give every finding "
    "a runtime verdict (confirmed / not reproduced / not reached / raised / run failed); "
    "recompilations no rule predicted are reported as JIT900. Never done without this flag.")

EPILOG = ("Linting never executes your code. `jitlint check --confirm` does: it runs your scripts "
          "(or --run COMMAND) to confirm each finding with real compile counts; see "
          "`jitlint check --help`.")


DEFAULT_PLATFORM, DEFAULT_TIMEOUT = "cpu", 120.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "runtime confirmation (--confirm executes your code)",
        "With --confirm, jitlint runs your code (in subprocesses, with a timeout) to measure "
        "real JAX compiles. Without --confirm nothing is ever executed.")
    group.add_argument("--confirm", action="store_true", help=CONFIRM_HELP)
    group.add_argument("--run", metavar="COMMAND", dest="confirm_run",
                       help="with --confirm: run this entry point once instead of each flagged "
                            "file, e.g. --run 'python train.py --steps 3' or --run 'python -m "
                            "pytest tests/test_x.py' (or give the command after `--`); findings "
                            "in every module it reaches are confirmed. A leading `python` means "
                            "the --python interpreter")
    group.add_argument("--python", metavar="PATH", dest="confirm_python",
                       help="with --confirm: the interpreter that has your JAX (default: the one "
                            "running jitlint)")
    group.add_argument("--platform", choices=("cpu", "gpu", "tpu"), dest="confirm_platform",
                       help="with --confirm: JAX_PLATFORMS for the runs (default: cpu)")
    group.add_argument("--timeout", type=float, metavar="SECONDS",
                       dest="confirm_timeout",
                       help="with --confirm: kill a run (its whole process group) after this "
                            "long (default: 120)")
    group.add_argument("--max-memory", metavar="SIZE", dest="confirm_max_memory",
                       help="with --confirm: kill a run whose processes together use more "
                            "resident memory than this, e.g. 4G or 512M (a bare number is MiB; "
                            "default: no limit; Linux only)")


_UNITS = {"": 2**20, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def without_confirm(args: argparse.Namespace) -> Optional[str]:
    """The options given that only --confirm uses, when it is missing (an error, as ruff
    refuses options that would do nothing)."""
    if args.confirm:
        return None
    given = [option for option, value in (
        ("--run", args.confirm_run if getattr(args, "confirm_command", None) is None
         else args.confirm_command),
        ("--python", args.confirm_python), ("--platform", args.confirm_platform),
        ("--timeout", args.confirm_timeout), ("--max-memory", args.confirm_max_memory))
        if value is not None]
    return ", ".join(given) or None


def parse_size(text: str) -> int:
    """``4G``, ``512M``, ``1.5GiB``, ``300`` (MiB) -> bytes."""
    value = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = value[-1:] if value[-1:] in _UNITS and value[-1:] else ""
    number = value[: len(value) - len(unit)]
    try:
        size = int(float(number) * _UNITS[unit])
    except (ValueError, OverflowError):
        raise ValueError(f"{text!r} is not a size such as 4G or 512M") from None
    if size <= 0:
        raise ValueError("it must be positive")
    return size


def split_command(argv: list[str]) -> tuple[list[str], Optional[list[str]]]:
    """``jitlint --confirm PATH... -- python train.py``: the words after ``--`` are the --run
    command, when --confirm comes before them (otherwise ``--`` keeps its usual meaning)."""
    if "--" in argv:
        cut = argv.index("--")
        if "--confirm" in argv[:cut]:
            return argv[:cut], argv[cut + 1:]
    return argv, None


def run(args: argparse.Namespace, files: Sequence[str], explicit: Sequence[str], diagnostics,
        settings, status: int, formats: dict) -> int:
    """Confirm, print the findings with their verdicts, and return the exit code."""
    from jitlint.runtime.confirm import Options, confirm, find_python, format_output, \
        parse_command, report_failures

    command = getattr(args, "confirm_command", None)
    if command is None and args.confirm_run is not None:
        try:
            command = parse_command(args.confirm_run)
        except ValueError as exc:
            print(f"jitlint: error: --run: {exc}", file=sys.stderr)
            return 2
    if command is not None and not command:
        print("jitlint: error: --run needs a command", file=sys.stderr)
        return 2
    max_memory = None
    if args.confirm_max_memory is not None:
        try:
            max_memory = parse_size(args.confirm_max_memory)
        except ValueError as exc:
            print(f"jitlint: error: --max-memory: {exc}", file=sys.stderr)
            return 2
        if not os.path.isdir("/proc"):
            print("jitlint: error: --max-memory needs /proc (Linux)", file=sys.stderr)
            return 2
    python = find_python(args.confirm_python)
    if python is None:
        print(f"jitlint: error: --python {args.confirm_python}: no such interpreter", file=sys.stderr)
        return 2
    timeout = DEFAULT_TIMEOUT if args.confirm_timeout is None else args.confirm_timeout
    if timeout <= 0:
        print("jitlint: error: --timeout must be positive", file=sys.stderr)
        return 2
    jobs = args.jobs if args.jobs is not None else min(4, os.cpu_count() or 1)
    options = Options(python=python, platform=args.confirm_platform or DEFAULT_PLATFORM, timeout=timeout,
                      command=command, jobs=jobs, progress=sys.stderr, max_memory=max_memory)
    confirmation = confirm(diagnostics, files, explicit, settings, options)
    report_failures(confirmation, options.timeout, sys.stderr)
    everything = confirmation.diagnostics(diagnostics)
    from jitlint.output import TEXT_FORMATS, write_statistics

    statistics = getattr(args, "statistics", False)
    if not (statistics and args.output_format in TEXT_FORMATS):  # the counts replace them (ruff)
        sys.stdout.write(format_output(args.output_format, everything, confirmation, formats))
    if statistics:
        write_statistics(everything, args.output_format)
    if status == 2:
        return 2
    if everything and not args.exit_zero:
        return 1
    return 0
