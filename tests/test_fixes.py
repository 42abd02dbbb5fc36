"""``--fix`` / ``--diff``: golden outputs, idempotence, safety limits, bytes kept, and the fixed
code run with real JAX (it compiles once)."""

from __future__ import annotations

import codecs
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import FIXTURES, ROOT, run_counting_compiles, user_function_compiles
from jitlint.config import Settings
from jitlint.engine import lint_source
from jitlint.fixes import FIXERS, fix_source

FIX_FIXTURES = FIXTURES / "fixes"
GOLDEN = ROOT / "tests" / "fix_golden"
FIXED_CASES = sorted(p.name for p in GOLDEN.glob("*.py"))
UNSAFE_CASES = sorted(p.name for p in FIX_FIXTURES.glob("unsafe_*.py"))
LAMBDA_LOOP = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.ones(3)
    for step in range(5):
        x = jax.jit(lambda v: v * 2.0)(x){comment}
    print(x)
""")


def fix(source: bytes | str, settings: Settings | None = None, path: str = "case.py"):
    data = source.encode() if isinstance(source, str) else source
    return fix_source(data, path, settings or Settings(root=ROOT))


def codes(data: bytes) -> set[str]:
    return {d.code for d in lint_source(data, "case.py", Settings(root=ROOT)).diagnostics}


def jitlint(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jitlint", "check", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_fixers_cover_the_hoist_and_the_static_literal_rules():
    assert {"JIT101", "JIT102", "JIT301"} <= set(FIXERS)


@pytest.mark.parametrize("name", FIXED_CASES)
def test_fix_matches_golden_and_is_idempotent(name):
    before = (FIX_FIXTURES / name).read_bytes()
    result = fix(before)
    assert result.applied, "the fix should apply"
    assert result.fixed.decode() == (GOLDEN / name).read_text()
    fixed_codes = {code for code, _, _ in result.applied}
    assert not fixed_codes & codes(result.fixed), "the fixed findings are gone"
    again = fix(result.fixed)
    assert again.fixed == result.fixed and not again.applied


@pytest.mark.parametrize("name", UNSAFE_CASES)
def test_unsafe_hoists_are_left_alone(name):
    before = (FIX_FIXTURES / name).read_bytes()
    assert codes(before), "the rule still reports it"
    result = fix(before)
    assert result.fixed == before and not result.applied


def test_def_reading_a_loop_local_is_not_moved():
    source = textwrap.dedent("""\
        import jax

        def run(xs):
            for x in xs:
                offset = x.sum()
                def f(v):
                    return v + offset
                y = jax.jit(f)(x)
            return y
    """)
    assert "JIT102" in codes(source.encode())
    assert not fix(source).changed


def test_noqa_and_ignored_findings_are_not_fixed():
    assert not fix(LAMBDA_LOOP.format(comment="  # noqa: JIT101")).changed
    assert not fix(LAMBDA_LOOP.format(comment=""), Settings(root=ROOT, ignore=("JIT101",))).changed
    assert fix(LAMBDA_LOOP.format(comment="  # noqa: E501")).changed


def test_file_that_does_not_parse_is_never_touched(tmp_path):
    source = LAMBDA_LOOP.format(comment="") + "def broken(:\n"
    assert not fix(source).changed
    path = tmp_path / "broken.py"
    path.write_text(source)
    proc = jitlint(tmp_path, "--fix", "broken.py")
    assert path.read_text() == source
    assert "JIT000" in proc.stdout


def test_encoding_bom_and_newlines_are_kept():
    latin = ("# -*- coding: latin-1 -*-\r\n# Réglages\r\n" + LAMBDA_LOOP.format(comment="")
             .replace("\n", "\r\n")).encode("latin-1")
    result = fix(latin)
    assert result.changed
    text = result.fixed.decode("latin-1")
    assert "Réglages" in text and "jitted_lambda = jax.jit(" in text
    assert text.count("\n") == text.count("\r\n"), "CRLF kept on every line, new ones too"

    bom = codecs.BOM_UTF8 + LAMBDA_LOOP.format(comment="  # é").encode()
    result = fix(bom)
    assert result.changed and result.fixed.startswith(codecs.BOM_UTF8)
    assert result.fixed.count(codecs.BOM_UTF8) == 1


def test_cli_diff_changes_nothing_and_fix_writes_once(tmp_path):
    path = tmp_path / "loop.py"
    source = LAMBDA_LOOP.format(comment="")
    path.write_text(source)

    plain = jitlint(tmp_path, "loop.py")
    assert plain.returncode == 1 and path.read_text() == source  # no --fix: never written

    diff = jitlint(tmp_path, "--diff", "loop.py")
    assert diff.returncode == 1
    assert path.read_text() == source
    assert diff.stdout.startswith("--- loop.py\n+++ loop.py\n")
    assert "-    x = jax.jit(lambda v: v * 2.0)(x)\n" in diff.stdout
    assert "+jitted_lambda = jax.jit(lambda v: v * 2.0)\n" in diff.stdout

    fixed = jitlint(tmp_path, "--fix", "loop.py")
    assert fixed.returncode == 0, fixed.stdout  # nothing left to report
    assert "fixed 1 finding" in fixed.stderr
    after = path.read_text()
    assert after != source and "jitted_lambda(x)" in after

    again = jitlint(tmp_path, "--fix", "loop.py")
    assert again.returncode == 0 and "fixed" not in again.stderr
    assert path.read_text() == after
    assert jitlint(tmp_path, "--diff", "loop.py").stdout == ""


# ---------------------------------------------------------------------------- real JAX
def _target(name: str) -> str:
    return {"hoist_lambda_in_loop.py": "<lambda>",
            "hoist_local_def_in_function_loop.py": "update",
            "hoist_decorated_def_in_loop.py": "advance",
            "static_list_to_tuple.py": "reduce"}[name]


def _stdout(script: Path) -> str:
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    proc = subprocess.run([sys.executable, str(script)], cwd=script.parent, env=env,
                          capture_output=True, text=True, timeout=300)
    return proc.stdout if proc.returncode == 0 else f"raised: {proc.stderr.splitlines()[-1]}"


@pytest.mark.parametrize("name", FIXED_CASES)
def test_fixed_code_compiles_once_with_real_jax(name, tmp_path):
    before_path = FIX_FIXTURES / name
    after_path = tmp_path / name
    after_path.write_bytes(fix(before_path.read_bytes()).fixed)

    before = run_counting_compiles(before_path)
    after = run_counting_compiles(after_path)
    target = _target(name)
    assert after["outcome"]["status"] == "ok", after["outcome"]
    assert user_function_compiles(after, after_path)[target] == 1
    if name.startswith("static_"):
        assert before["outcome"]["status"] == "raised" and before["outcome"]["type"] == "ValueError"
    else:
        assert user_function_compiles(before, before_path)[target] == 5
        assert _stdout(after_path) == _stdout(before_path)  # same results, 1 compile instead of 5
