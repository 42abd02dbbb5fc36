"""Settings: defaults, ``[tool.jitlint]`` in the nearest pyproject.toml, and CLI overrides."""

from __future__ import annotations

import fnmatch
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from jitlint.rule import GROUPS
from jitlint.rules import ALL_RULES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

DEFAULT_EXCLUDE = (".git", ".hg", ".svn", ".venv", "venv", "build", "dist", "__pycache__", ".tox",
                   "node_modules", ".jitlint_cache", ".mypy_cache", ".pytest_cache", ".nox",
                   ".eggs", ".ipynb_checkpoints", ".ruff_cache", ".pytype", ".direnv",
                   "__pypackages__", "site-packages")


class ConfigError(Exception):
    """A bad setting; the CLI reports it and exits 2."""


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] = ("JIT",)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    extra_jit_functions: tuple[str, ...] = ()
    respect_gitignore: bool = True  # skip files git ignores (.gitignore, .git/info/exclude)
    force_exclude: bool = False  # apply exclude to files named explicitly (pre-commit names them)
    unsafe_fixes: bool = False  # --fix / --diff apply the unsafe fixes too (no effect on findings)
    root: Path = field(default_factory=Path.cwd)  # the directory patterns are relative to
    source: Optional[Path] = None  # the pyproject.toml these came from

    def is_enabled(self, code: str, path: Optional[str] = None, opt_in: bool = False) -> bool:
        """``opt_in``: the rule is off unless selected by a prefix more specific than the
        default ``JIT`` (or ``ALL``): ``--extend-select JIT804``, ``select = ["JIT8"]``.
        A group name (``unknown-callers``) selects no rule; a ``select`` of group names only
        keeps every default rule."""
        select = tuple(p for p in self.select if p not in GROUPS) or ("JIT",)
        prefixes = select + tuple(p for p in self.extend_select if p not in GROUPS)
        if opt_in:
            prefixes = tuple(p for p in prefixes if p not in ("ALL", "JIT"))
        selected = _longest_match(code, prefixes)
        ignored = _longest_match(code, self.ignore + self._file_ignores(path))
        return selected > 0 and selected > ignored

    def group_enabled(self, group: str, path: Optional[str] = None) -> bool:
        """Whether the findings of an opt-in group (rule.GROUPS) are reported: its name is in
        ``select`` or ``extend-select``, and not in ``ignore`` or this file's ignores."""
        return group in self.select + self.extend_select \
            and group not in self.ignore + self._file_ignores(path)

    def _file_ignores(self, path: Optional[str]) -> tuple[str, ...]:
        if path is None or not self.per_file_ignores:
            return ()
        codes: list[str] = []
        for pattern, pattern_codes in self.per_file_ignores:
            if _path_matches(path, pattern, self.root):
                codes.extend(pattern_codes)
        return tuple(codes)

    def is_excluded(self, path: Path) -> bool:
        name = path.name
        if name in DEFAULT_EXCLUDE:
            return True
        return any(_path_matches(str(path), pattern, self.root) for pattern in self.exclude)

    def fingerprint(self) -> str:
        """What the cache keys on: everything that can change a file's findings."""
        return repr((self.select, self.ignore, self.extend_select, self.per_file_ignores,
                     self.extra_jit_functions, str(self.root)))


def _longest_match(code: str, prefixes: Iterable[str]) -> int:
    """Length of the longest prefix matching ``code`` (ALL matches everything), 0 if none."""
    best = 0
    for prefix in prefixes:
        if prefix == "ALL":
            best = max(best, 1)
        elif code.startswith(prefix):
            best = max(best, len(prefix) + 1)
    return best


def _path_matches(path: str, pattern: str, root: Path) -> bool:
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(root.resolve()).as_posix()
    except ValueError:
        relative = absolute.as_posix()
    return (fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(absolute.name, pattern)
            or fnmatch.fnmatch(relative, pattern.rstrip("/") + "/*"))


KEYS = {"select", "ignore", "extend-select", "extend-ignore", "exclude", "extend-exclude",
        "per-file-ignores", "extra-jit-functions", "respect-gitignore", "force-exclude", "unsafe-fixes"}


def find_pyproject(start: Path) -> Optional[Path]:
    """The nearest pyproject.toml at or above ``start`` that has a [tool.jitlint] table."""
    start = Path(os.path.abspath(start))  # not resolve(): a symlink loop must not raise here
    for directory in (start, *start.parents) if start.is_dir() else start.parents:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise ConfigError(f"{candidate}: cannot read: {exc}") from exc
            if "jitlint" in data.get("tool", {}):
                return candidate
    return None


def load_settings(config_path: Optional[Path], start: Path) -> Settings:
    path = config_path or find_pyproject(start)
    if path is None:
        return Settings(root=Path.cwd())
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: no such config file") from exc
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from exc
    tool = data.get("tool", {})
    if "jitlint" not in tool:  # a --config without it would silently lint with the defaults
        raise ConfigError(f"{path}: no [tool.jitlint] table")
    table = tool["jitlint"]
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.jitlint] must be a table")
    return settings_from_table(table, path)


def settings_from_table(table: dict[str, Any], path: Path) -> Settings:
    unknown = sorted(set(table) - KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) in [tool.jitlint]: {', '.join(unknown)} "
                          f"(known: {', '.join(sorted(KEYS))})")
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{path}: per-file-ignores must be a table of pattern = [codes]")
    return Settings(
        select=_codes(table, "select", path, ("JIT",)),
        ignore=_codes(table, "ignore", path) + _codes(table, "extend-ignore", path),
        extend_select=_codes(table, "extend-select", path),
        exclude=_strings(table, "exclude", path) + _strings(table, "extend-exclude", path),
        per_file_ignores=tuple(
            (pattern, _check_codes(_string_list(codes, f"per-file-ignores.{pattern}", path), path))
            for pattern, codes in per_file.items()
        ),
        extra_jit_functions=_strings(table, "extra-jit-functions", path),
        respect_gitignore=_bool(table, "respect-gitignore", path, True),
        force_exclude=_bool(table, "force-exclude", path, False),
        unsafe_fixes=_bool(table, "unsafe-fixes", path, False),
        root=path.parent.resolve(),
        source=path,
    )


def _strings(table: dict, key: str, path: Path, default: Sequence[str] = ()) -> tuple[str, ...]:
    if key not in table:
        return tuple(default)
    return _string_list(table[key], key, path)


def _string_list(value: Any, key: str, path: Path) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: {key} must be a list of strings, got {value!r}")
    return tuple(value)


def _bool(table: dict, key: str, path: Path, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise ConfigError(f"{path}: {key} must be true or false, got {value!r}")
    return value


def _codes(table: dict, key: str, path: Path, default: Sequence[str] = ()) -> tuple[str, ...]:
    return _check_codes(_strings(table, key, path, default), path)


def selector(text: str) -> str:
    """A code, prefix or group as given on the command line: codes in any case (``jit101``),
    ``ALL``, group names as listed (``unknown-callers``)."""
    text = text.strip()
    return text.lower() if text.lower() in GROUPS else text.upper()


def _check_codes(codes: tuple[str, ...], where: object) -> tuple[str, ...]:
    """Each code must select at least one rule, as in ruff: a typo (JIT310 for JIT301) is an
    error, not a selection of nothing."""
    for code in codes:
        if code == "ALL" or code in GROUPS:
            continue
        if not _is_code_prefix(code):
            raise ConfigError(f"{where}: {code!r} is not a rule code or prefix (e.g. JIT1, JIT101) "
                              f"or group ({', '.join(GROUPS)})")
        if not any(known.startswith(code) for known in ALL_RULES):
            raise ConfigError(f"{where}: unknown rule code {code!r}; `jitlint rules` lists them")
    return codes


def _is_code_prefix(code: str) -> bool:
    return code.startswith("JIT") and code[3:].isdigit() and len(code) <= 6 or code in ("J", "JI", "JIT")


def with_overrides(settings: Settings, select=None, ignore=None, extend_select=None,
                   extra_jit_functions=None, extend_exclude=None, respect_gitignore=None,
                   force_exclude=None, unsafe_fixes=None) -> Settings:
    """CLI options replace (select, respect-gitignore, force-exclude, unsafe-fixes) or extend (ignore,
    extend-select, extend-exclude) the file's settings.  ``select=[]`` (``--select ""``) is
    refused: it would lint nothing and pass."""
    where = "command line"
    changes: dict[str, Any] = {}
    if select is not None and not select:
        raise ConfigError(f"{where}: --select needs at least one code or prefix (JIT selects all)")
    if select:
        changes["select"] = _check_codes(tuple(select), where)
    if ignore:
        changes["ignore"] = settings.ignore + _check_codes(tuple(ignore), where)
    if extend_select:
        changes["extend_select"] = settings.extend_select + _check_codes(tuple(extend_select), where)
    if extra_jit_functions:
        changes["extra_jit_functions"] = settings.extra_jit_functions + tuple(extra_jit_functions)
    if extend_exclude:
        changes["exclude"] = settings.exclude + tuple(extend_exclude)
    if respect_gitignore is not None:
        changes["respect_gitignore"] = respect_gitignore
    if force_exclude is not None:
        changes["force_exclude"] = force_exclude
    if unsafe_fixes is not None:
        changes["unsafe_fixes"] = unsafe_fixes
    return replace(settings, **changes)
