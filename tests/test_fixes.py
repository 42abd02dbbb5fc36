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

from helpers import (FIXTURES, ROOT, ForkedRun, run_all_counting_compiles, run_forked,
                     user_function_compiles)
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


def test_fixers_cover_the_hoist_the_static_literal_and_the_item_assignment_rules():
    assert {"JIT101", "JIT102", "JIT301", "JIT818"} <= set(FIXERS)


@pytest.mark.parametrize("source, reason", [
    ("""\
        import jax.numpy as jnp

        counts = jnp.zeros(3)

        def bump(i):
            counts[i] += 1
        """, "bound outside this scope"),
    ("""\
        import jax.numpy as jnp

        x = jnp.zeros(3)
        try:
            x[0] = 1.0
        except TypeError:
            x = x.at[0].set(1.0)
        """, "catches the TypeError"),
    ("""\
        import jax.numpy as jnp

        x = jnp.arange(4)
        x[0] //= 2
        """, "`//=` has no .at[] method"),
    ("""\
        import jax.numpy as jnp

        x = jnp.zeros(3)
        x[0] = x[1] = 1.0
        """, "several targets"),
])
def test_item_assignment_fix_is_refused_where_the_rebinding_would_mean_something_else(source, reason):
    """`x = x.at[i].set(v)` rebinds `x`: in a function over a module-level array that makes it
    local (UnboundLocalError); a `try` may expect the TypeError; some operators have no .at[]
    method. Each is reported, with why, and left as written."""
    from jitlint.fixes import _outcomes, Refusal
    import libcst as cst

    source = textwrap.dedent(source)
    outcomes = [outcome for _, outcome in _outcomes(cst.parse_module(source), "case.py", Settings(root=ROOT),
                                                   FIXERS) if isinstance(outcome, Refusal)]
    assert "JIT818" in codes(source.encode())
    assert any(reason in refusal.reason for refusal in outcomes), outcomes
    assert not fix(source).changed


@pytest.mark.parametrize("name", FIXED_CASES)
def test_fix_matches_golden_and_is_idempotent(name):
    before = (FIX_FIXTURES / name).read_bytes()
    result = fix(before)
    assert result.applied, "the fix should apply"
    assert result.fixed.decode() == (GOLDEN / name).read_text()
    fixed_codes = {fix.code for fix in result.applied}
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


        if __name__ == "__main__":
            print(run([jax.numpy.ones(3)] * 4))
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


# ---------------------------------------------------------------------------- safe and unsafe
HIDDEN = (ROOT / "tests" / "fix_safety_programs" / "hidden_container_handed_to_print.py").read_text()
LOOP_VALUE = (FIX_FIXTURES / "unsafe_lambda_reads_loop_value.py").read_text()
NO_FIXER = textwrap.dedent("""\
    import jax
    from functools import partial


    @partial(jax.jit, static_argnums=1)
    def f(x, n):
        return x * n


    for i in range(3):
        f(1.0, i)
""")
HIDDEN_NOTE = "1 hidden fix can be enabled with the `--unsafe-fixes` option"


def test_every_fixer_answers_with_an_edit_or_a_reason():
    """A fixer never returns None: it proposes an Edit (safe or unsafe) or a Refusal saying why."""
    from jitlint.fixes import _outcomes, Edit, Refusal
    import libcst as cst

    sources = [p.read_text() for p in [*FIX_FIXTURES.glob("*.py"),
                                       *(ROOT / "tests" / "fix_safety_programs").glob("*.py")]]
    answers = []
    for source in sources:
        answers.extend(outcome for _, outcome in _outcomes(cst.parse_module(source), "case.py",
                                                           Settings(root=ROOT), FIXERS))
    assert answers and all(isinstance(a, (Edit, Refusal)) for a in answers)
    assert all(a.reason for a in answers if isinstance(a, Refusal))
    assert {a.applicability for a in answers if isinstance(a, Edit)} == {"safe", "unsafe"}


def test_fix_applies_only_safe_fixes_and_counts_the_hidden_ones(tmp_path, run_cli):
    hidden = tmp_path / "hidden.py"
    hidden.write_text(HIDDEN)
    safe = tmp_path / "safe.py"
    safe.write_text(LAMBDA_LOOP.format(comment=""))
    code, out, err = run_cli("--no-cache", str(hidden), str(safe))
    assert code == 1
    assert out.splitlines()[-1] == f"Found 2 findings (1 fixable with `jitlint check --fix`; {HIDDEN_NOTE})."
    assert f"{hidden}:7:9: JIT101 jax.jit" in out, "no [*]: --fix does not fix it"

    code, out, err = run_cli("--no-cache", "--fix", str(hidden), str(safe))
    assert hidden.read_text() == HIDDEN and "jitted_lambda" in safe.read_text()
    assert code == 1 and "fixed 1 finding" in err
    assert out.splitlines()[-1] == f"Found 1 finding ({HIDDEN_NOTE})."

    code, out, err = run_cli("--no-cache", "--diff", "--unsafe-fixes", str(hidden))
    assert code == 1 and "+jitted_lambda = jax.jit(lambda v: v * weights[-1])\n" in out
    assert hidden.read_text() == HIDDEN

    code, out, err = run_cli("--no-cache", "--fix", "--unsafe-fixes", str(hidden))
    assert code == 0 and out == "All checks passed!\n"
    assert "jitted_lambda = jax.jit(lambda v: v * weights[-1])" in hidden.read_text()


def test_unsafe_fixes_from_the_config_and_overridden_on_the_command_line(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\nunsafe-fixes = true\n")
    hidden = tmp_path / "hidden.py"
    hidden.write_text(HIDDEN)
    code, out, _ = run_cli("--no-cache", str(hidden))
    assert "JIT101 [*]" in out and out.endswith("(1 fixable with `jitlint check --fix`).\n")
    code, out, _ = run_cli("--no-cache", "--fix", "--no-unsafe-fixes", str(hidden))
    assert hidden.read_text() == HIDDEN and out.endswith(f"({HIDDEN_NOTE}).\n")
    code, out, _ = run_cli("--no-cache", "--fix", str(hidden))
    assert code == 0 and "jitted_lambda" in hidden.read_text()
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint]\nunsafe-fixes = 1\n")
    code, _, err = run_cli("--no-cache", str(hidden))
    assert code == 2 and "unsafe-fixes must be true or false" in err


@pytest.mark.parametrize("name", [*UNSAFE_CASES, *sorted(
    p.name for p in (ROOT / "tests" / "fix_safety_programs").glob("unsafe_*.py"))])
def test_a_hoist_known_to_be_wrong_is_not_offered_even_as_unsafe(name):
    path = FIX_FIXTURES / name
    if not path.exists():
        path = ROOT / "tests" / "fix_safety_programs" / name
    assert not fix(path.read_bytes(), Settings(root=ROOT, unsafe_fixes=True)).changed


def test_show_fixes_says_why_each_finding_is_not_fixed(tmp_path, run_cli):
    files = {"hidden.py": HIDDEN, "loop_value.py": LOOP_VALUE, "no_fixer.py": NO_FIXER,
             "safe.py": LAMBDA_LOOP.format(comment="")}
    for name, source in files.items():
        (tmp_path / name).write_text(source)
    code, out, err = run_cli("--no-cache", "--show-fixes", str(tmp_path))
    reasons = out[out.index("Not fixed (4):\n"):].splitlines()[1:5]
    assert reasons == [
        f"  {tmp_path / 'hidden.py'}:7:9: JIT101 unsafe fix hidden (`--unsafe-fixes` enables it): "
        f"build `jitted_lambda` once above the loop; unsafe because `weights` is handed to "
        f"`sum()` in the loop, which might change it",
        f"  {tmp_path / 'loop_value.py'}:9:9: JIT101 refused: it reads the loop value `scale`: "
        f"passing it as an argument changes the function's signature, which is left to you",
        f"  {tmp_path / 'no_fixer.py'}:11:12: JIT401 no fix for this rule",
        f"  {tmp_path / 'safe.py'}:6:9: JIT101 fix available with `--fix`: build `jitted_lambda` "
        f"once above the loop",
    ]
    code, out, err = run_cli("--no-cache", "--show-fixes", "--fix", str(tmp_path))
    assert f"jitlint: fixed {tmp_path / 'safe.py'}:6: JIT101 build `jitted_lambda` once above the loop" in err
    assert "Not fixed (3):" in out and "fix available" not in out


def test_json_carries_each_findings_fix(tmp_path, run_cli):
    import json

    for name, source in {"hidden.py": HIDDEN, "loop_value.py": LOOP_VALUE,
                         "safe.py": LAMBDA_LOOP.format(comment="")}.items():
        (tmp_path / name).write_text(source)
    for output_format in ("json", "json-lines"):
        code, out, _ = run_cli("--no-cache", "--output-format", output_format, str(tmp_path))
        items = json.loads(out) if output_format == "json" else [json.loads(l) for l in out.splitlines()]
        assert [item["fix"] for item in items] == [
            {"applicability": "unsafe", "message": "build `jitted_lambda` once above the loop"},
            None,
            {"applicability": "safe", "message": "build `jitted_lambda` once above the loop"},
        ]


# ---------------------------------------------------------------------------- real JAX
def _target(name: str) -> str:
    return {"hoist_lambda_in_loop.py": "<lambda>",
            "hoist_local_def_in_function_loop.py": "update",
            "hoist_decorated_def_in_loop.py": "advance",
            "static_list_to_tuple.py": "reduce",
            "at_fill_operator_columns.py": "operator"}[name]


# prefix of a case -> the error its code raised before the fix
RAISED_BEFORE = {"static_": "ValueError", "at_": "TypeError"}


def _raised_before(name: str):
    return next((error for prefix, error in RAISED_BEFORE.items() if name.startswith(prefix)), None)


def _stdout(run: ForkedRun) -> str:
    return run.stdout if run.returncode == 0 else f"raised: {run.stderr.splitlines()[-1]}"


@pytest.fixture(scope="module")
def fixed_runs(tmp_path_factory) -> tuple[dict[str, tuple[Path, Path, dict, dict]], dict[Path, str]]:
    """Every case run with real JAX, in one batch: per case (the fixture, its fixed copy, their
    bootstrap reports), and the ``_stdout`` of both scripts of each case that recompiles."""
    directory = tmp_path_factory.mktemp("fixed")
    pairs = {}
    for name in FIXED_CASES:
        after_path = directory / name
        after_path.write_bytes(fix((FIX_FIXTURES / name).read_bytes()).fixed)
        pairs[name] = (FIX_FIXTURES / name, after_path)
    reports = run_all_counting_compiles(script for pair in pairs.values() for script in pair)
    plain = [script for name, pair in pairs.items() if _raised_before(name) is None for script in pair]
    outputs = {path: _stdout(run) for path, run in
               run_forked(plain, dict(os.environ, JAX_PLATFORMS="cpu"), counting=False).items()}
    runs = {name: (before, after, reports[before], reports[after]) for name, (before, after) in pairs.items()}
    return runs, outputs


@pytest.mark.parametrize("name", FIXED_CASES)
def test_fixed_code_compiles_once_with_real_jax(name, fixed_runs):
    runs, outputs = fixed_runs
    before_path, after_path, before, after = runs[name]
    target = _target(name)
    assert after["outcome"]["status"] == "ok", after["outcome"]
    assert user_function_compiles(after, after_path)[target] == 1
    if _raised_before(name):
        assert before["outcome"]["status"] == "raised" and before["outcome"]["type"] == _raised_before(name)
    else:
        assert user_function_compiles(before, before_path)[target] == 5
        assert outputs[after_path] == outputs[before_path]  # same results, 1 compile instead of 5
