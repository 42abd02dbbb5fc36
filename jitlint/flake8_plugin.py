"""flake8 adapter: ``flake8 --select JIT`` runs jitlint's engine on each file.

Registered as the ``JIT`` entry point of the ``flake8.extension`` group.  The adapter only
translates: it feeds flake8's lines to ``engine.lint_source`` and yields its diagnostics with
flake8's 0-based column.  Selection (``--select``, ``--extend-ignore``, ``per-file-ignores``)
and ``# noqa`` comments are flake8's job here, so jitlint's own line-level noqa is switched
off (otherwise ``flake8 --disable-noqa`` could not show a suppressed finding); the file-level
``# jitlint: noqa``, which flake8 does not know, is still honoured.  Which functions count as
jit comes from ``[tool.jitlint] extra-jit-functions`` in the nearest pyproject.toml and from
flake8's ``--jitlint-extra-jit-functions`` option.  Calls into other modules of the file's
project (engine.lint_in_project) are checked as ``jitlint check`` checks them; the summaries of
those modules are cached in ``.jitlint_cache`` next to the config.
"""

from __future__ import annotations

import ast
import io
import os
import tokenize
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Optional, Sequence

from jitlint import __version__
from jitlint.config import Settings, load_settings
from jitlint.cache import CACHE_DIR_NAME, ResultCache
from jitlint.engine import lint_in_project
from jitlint.rules import ALL_RULES


@lru_cache(maxsize=64)
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

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        if not self.any_code_selected:
            return
        directory = self._config_directory()
        settings = _settings_for(directory, self.extra_jit_functions)
        result = lint_in_project(_as_bytes(self.lines), self.filename, settings,
                                 cache=_cache_for(settings), line_noqa=False)
        if result.internal_error:
            raise RuntimeError(f"jitlint internal error on {self.filename}: {result.internal_error}")
        for d in result.diagnostics:
            yield d.line, d.column - 1, f"{d.code} {d.message}", type(self)

    def _config_directory(self) -> str:
        path: Optional[Path] = Path(self.filename) if self.filename not in ("stdin", "-") else None
        if path is not None and path.exists():
            return str(path.resolve().parent)
        return os.getcwd()
