"""Fuzzing: the engine, the fixes and the CLI's JSON contract never crash.

Three sources of programs: hypothesmith's valid Python (any syntax), JAX-flavoured random
programs that reach the rules (tests/fuzz_programs.py), and those programs mutated into
invalid ones.  CI runs a bounded number of examples; a longer local run:

    JITLINT_FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz.py -q

(docs/reliability.md).  A crash found here gets its minimal reproducer as a regression test in
tests/test_fuzz_regressions.py.
"""

from __future__ import annotations

import ast
import json
import os
import tempfile
import warnings
from pathlib import Path

import pytest

hypothesmith = pytest.importorskip("hypothesmith")
from hypothesis import HealthCheck, assume, given, settings, strategies as st  # noqa: E402

from fuzz_programs import program  # noqa: E402
from jitlint.config import Settings  # noqa: E402
from jitlint.engine import lint_source  # noqa: E402
from jitlint.fixes import fix_source  # noqa: E402

EXAMPLES = int(os.environ.get("JITLINT_FUZZ_EXAMPLES", "30"))
# hypothesmith compiles what it generates: "'int' object is not callable" and the like.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])
SETTINGS = Settings()
JSON_KEYS = {"path", "line", "column", "end_line", "end_column", "code", "name", "message",
             "severity", "fix"}


def parses(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def lint(data: bytes, path: str = "pkg/fuzzed.py"):
    return lint_source(data, path, SETTINGS, prefilter=False)


def check_positions(result, text: str) -> None:
    lines = max(1, len(text.splitlines()))
    for d in result.diagnostics:
        assert 1 <= d.line <= d.end_line <= lines + 1, d
        assert d.column >= 1 and d.end_column >= 1, d
        assert "Traceback" not in d.message and "\n" not in d.message, d


@FUZZ
# deferred: hypothesmith builds its grammar's parser when asked (about 0.9 CPU-s), which every
# pytest-xdist worker would pay while collecting; only the worker that runs the test does now
@given(st.deferred(hypothesmith.from_grammar))
def test_any_valid_program_lints_without_an_internal_error(source):
    result = lint(source.encode())
    assert result.internal_error is None, (result.internal_error, source)
    assert not any("syntax error" in d.message for d in result.diagnostics), source
    check_positions(result, source)


@FUZZ
@given(program)
def test_jax_flavoured_programs_lint_without_an_internal_error(source):
    assume(parses(source))
    result = lint(source.encode())
    assert result.internal_error is None, (result.internal_error, source)
    assert not any(d.code == "JIT000" for d in result.diagnostics), (result.diagnostics, source)
    check_positions(result, source)


_NASTY = ["(", ")", ":", "\"", "'''", "\\", "\t", "\r", "\x0c", "\0", "\u00e9", "\ufeff", "@",
          "lambda", "def ", "    ", "\n", "#", "jit("]


@st.composite
def mutated(draw) -> bytes:
    data = draw(program).encode()
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "delete", "truncate", "bytes", "duplicate"]))
        if kind == "insert":
            data = data[:at] + draw(st.sampled_from(_NASTY)).encode() + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 8)):]
        elif kind == "truncate":
            data = data[:at]
        elif kind == "bytes":
            data = data[:at] + draw(st.binary(min_size=1, max_size=3)) + data[at:]
        else:
            lines = data.splitlines(keepends=True)
            if lines:
                line = draw(st.integers(0, len(lines) - 1))
                data = b"".join(lines[:line + 1] + lines[line:])
    return data


@FUZZ
@given(mutated())
def test_mutated_programs_get_jit000_never_a_traceback(data):
    result = lint(data)
    assert result.internal_error is None, (result.internal_error, data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = None
    if text is None or "\0" in text or not parses(text):
        assert [d.code for d in result.diagnostics] == ["JIT000"], (result.diagnostics, data)
        assert result.diagnostics[0].message.endswith("; the file was not linted")
    check_positions(result, data.decode("utf-8", "replace"))


@FUZZ
@given(program)
def test_fixes_keep_programs_valid_and_are_idempotent(source):
    assume(parses(source))
    result = fix_source(source.encode(), "pkg/fuzzed.py", SETTINGS)
    if not result.changed:
        return
    fixed = result.fixed.decode()
    assert parses(fixed), (source, fixed)
    assert not fix_source(result.fixed, "pkg/fuzzed.py", SETTINGS).changed, (source, fixed)


@settings(max_examples=max(5, EXAMPLES // 5), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.lists(st.one_of(program.map(str.encode), mutated()), min_size=1, max_size=4))
def test_cli_json_output_keeps_its_contract(sources):
    from jitlint.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, data in enumerate(sources):
            path = Path(tmp, f"m{i}.py")
            path.write_bytes(data)
            paths.append(str(path))
        with tempfile.TemporaryFile("w+") as out, _redirect_stdout(out):
            code = main(["--output-format", "json", "--no-cache", "-j", "1", *paths])
            out.seek(0)
            rows = json.load(out)
    assert code in (0, 1) and (code == 1) == bool(rows)
    for row in rows:
        assert set(row) == JSON_KEYS and row["path"] in paths
        assert isinstance(row["line"], int) and isinstance(row["column"], int)
        assert row["code"].startswith("JIT") and row["severity"] in ("error", "warning")
    assert rows == sorted(rows, key=lambda r: (r["path"], r["line"], r["column"], r["code"],
                                               r["message"]))


def _redirect_stdout(stream):
    import contextlib

    return contextlib.redirect_stdout(stream)
