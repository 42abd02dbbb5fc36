"""``jitlint --confirm``: one verdict per kind of finding, each on real JAX runs (CPU).

* compile findings: confirmed by the compiles of the jit the flagged line made, wherever it is
  called (a partial stored and called on the next line);
* error findings: the exception raised at the site, also when the program catches it;
* stale-value findings: the value the body was traced with against the value at a later call
  that reused the compiled program (never a compile count);
* runtime-only JIT900: library jits and jitted callables attributed to the user's line, JAX's
  reason in words, two-value static flags left alone;
* a failed run's reason: the error's own line.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from helpers import FIXTURES, ROOT, expected_findings
from test_confirm import jitlint

KINDS = FIXTURES / "confirm" / "kinds"


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    pytest.importorskip("jax")
    pytest.importorskip("flax")
    proc = jitlint("check", "--confirm", "--output-format", "json", "-j", "2",
                   *sorted(str(p) for p in KINDS.glob("*.py")))
    assert proc.returncode == 1, proc.stderr
    return json.loads(proc.stdout)


def runtime(rows: list[dict], name: str, code: str) -> dict:
    [(line, _)] = [m for m in expected_findings(KINDS / name) if m[1] == code]
    [row] = [r for r in rows if Path(r["path"]).name == name and r["line"] == line and r["code"] == code]
    return row["runtime"]


def test_a_stored_partial_is_confirmed_by_the_compiles_of_its_calls(rows):
    found = runtime(rows, "stored_partial.py", "JIT103")
    assert (found["verdict"], found["compiles"], found["calls"]) == ("confirmed", 4, 4)
    assert not [r for r in rows if Path(r["path"]).name == "stored_partial.py" and r["code"] == "JIT900"]


@pytest.mark.parametrize("code, error, message", [
    ("JIT301", "ValueError", "Non-hashable static arguments are not supported"),
    ("JIT801", "TracerBoolConversionError", "Attempted boolean conversion of traced array"),
    ("JIT802", "ConcretizationTypeError", "Abstract tracer value encountered where concrete value"),
    ("JIT803", "TracerArrayConversionError", "The numpy.ndarray conversion method __array__()"),
    ("JIT701", "ValueError", "Jitted function has invalid argnames {'ord'} in static_argnames"),
    # raised by the method's first call, not on the decorator's line
    ("JIT805", "TypeError", "Error interpreting argument to <function Scaler.apply"),
])
def test_an_error_the_program_catches_is_raised_caught(rows, code, error, message):
    found = runtime(rows, "caught_errors.py", code)
    assert found["verdict"] == f"raised {error} (caught)"
    assert found["detail"].startswith(message)


def test_an_uncaught_error_is_raised_with_its_own_first_line(rows):
    found = runtime(rows, "uncaught_tracer_error.py", "JIT801")
    assert found["verdict"] == "raised TracerBoolConversionError"
    assert found["detail"].startswith("Attempted boolean conversion of traced array")


def test_a_stale_read_shows_the_traced_and_the_later_value(rows):
    found = runtime(rows, "stale_values.py", "JIT601")
    assert found["verdict"] == "confirmed"
    assert found["compiles"] is None  # a stale value is not a compile count
    assert found["detail"].startswith("`scale` = 1.0 when traced, `scale` = 0.5 at a later call "
                                      "that reused the compiled program")
    assert "traced 1 time in 3 calls; 2 of them used the old value" in found["detail"]


def test_a_global_written_in_a_jitted_body_is_written_once(rows):
    found = runtime(rows, "stale_values.py", "JIT602")
    assert found["verdict"] == "confirmed"
    assert found["compiles"] is None
    assert found["detail"] == ("the body ran 1 time in 3 calls: `calls` = 1 was written when "
                               "traced and still `calls` = 1 after 2 calls that reused the "
                               "compiled program and skipped the write")


def test_a_stale_attribute_shows_the_traced_and_the_later_value(rows):
    found = runtime(rows, "stale_attributes.py", "JIT601")
    assert (found["verdict"], found["compiles"]) == ("confirmed", None), found
    assert found["detail"] == ("`self.w` = 1.0 when traced, `self.w` = 0.5 at a later call that "
                               "reused the compiled program (traced 1 time in 3 calls; 2 of them "
                               "used the old value)")


def test_calls_are_counted_per_evaluation_and_compiles_per_jit_object(rows):
    path = KINDS / "counted_calls.py"
    found = {(r["line"], r["code"]): r["runtime"] for r in rows if Path(r["path"]).name == path.name}
    marks = sorted(expected_findings(path))
    assert set(found) == set(marks)
    (listed, _), (summed, _), (made, _), (called, _) = marks
    for line in (listed, summed):  # a list comprehension and a generator of 4 calls each
        assert (found[(line, "JIT101")]["verdict"], found[(line, "JIT101")]["detail"]) == (
            "confirmed", "compiled 4 times in 4 calls")
    assert found[(made, "JIT101")]["detail"] == "compiled 3 times in 3 calls"
    # The ragged batch is called on the next line, but each compile was of a new lambda's jit:
    # those compiles are the JIT101's, and the short batch compiled nothing more.
    ragged = found[(called, "JIT504")]
    assert (ragged["verdict"], ragged["detail"]) == ("not reproduced", "no compile at this site in 3 calls")


def test_findings_a_short_run_does_not_show_are_not_reproduced_in_their_own_terms(rows):
    error = runtime(rows, "short_run.py", "JIT801")  # run under jax.disable_jit()
    assert (error["verdict"], error["detail"]) == ("not reproduced", "ran 2 times without raising")
    path = KINDS / "short_run.py"
    reads = {line: r["runtime"] for r in rows if Path(r["path"]).name == "short_run.py"
             and r["code"] == "JIT601" for line in [r["line"]]}
    apply_line = next(n for n, text in enumerate(path.read_text().splitlines(), 1)
                      if "return x * decay" in text)
    unchanged, never = reads.pop(apply_line), reads.popitem()[1]
    assert (unchanged["verdict"], unchanged["detail"]) == (
        "not reproduced", "traced 1 time in 3 calls; the value stayed `decay` = 1.0")
    assert (never["verdict"], never["detail"]) == ("not reached", "the jitted function was never traced")
    write = runtime(rows, "short_run.py", "JIT602")
    assert (write["verdict"], write["detail"]) == (
        "not reproduced", "traced 1 time in 1 call; no call reused the compiled program")


def test_library_jits_and_jitted_pullbacks_are_runtime_only_findings_on_the_user_line(rows):
    path = KINDS / "library_jits.py"
    lines = path.read_text().splitlines()
    found = {r["line"]: r for r in rows if Path(r["path"]).name == "library_jits.py"}
    nnx_line = next(n for n, text in enumerate(lines, 1) if "nnx.jit(net)" in text)
    vjp_line = next(n for n, text in enumerate(lines, 1) if "jax.jit(pullback)" in text)
    sgd_line = next(n for n, text in enumerate(lines, 1) if "w = sgd(w, w, schedule(t))" in text)
    assert set(found) == {nnx_line, vjp_line, sgd_line}
    # nnx.jit per step and a jitted pullback per point are static findings (JIT105) now; the
    # run confirms them through the library's jit and JAX's own function objects.
    for line in (nnx_line, vjp_line):
        row = found[line]
        assert row["code"] == "JIT105"
        assert (row["runtime"]["verdict"], row["runtime"]["compiles"]) == ("confirmed", 3)
        assert "re-defined repeatedly" in row["runtime"]["reason"]
    # a float returned by a schedule helper, static under filter_jit: a static finding (JIT403)
    # now, which the run confirms through equinox's jit of sgd
    sgd = found[sgd_line]
    assert sgd["code"] == "JIT403"
    assert (sgd["runtime"]["verdict"], sgd["runtime"]["compiles"]) == ("confirmed", 4)


def test_a_two_value_static_flag_is_not_a_runtime_finding(rows):
    assert not [r for r in rows if Path(r["path"]).name == "two_value_flag.py"]


def test_a_failed_run_names_the_error_not_jax_traceback_notes(rows):
    found = runtime(rows, "jax_error_before_loop.py", "JIT101")
    assert found["verdict"] == "run failed"
    assert found["detail"] == ("exit code 1; TypeError: add got incompatible shapes for "
                               "broadcasting: (3,), (4,).")


def test_every_finding_of_the_bundled_examples_is_confirmed(tmp_path):
    """As a user runs it: the ``jitlint`` of this environment (CI: an installed wheel), from a
    directory outside the source tree."""
    pytest.importorskip("jax")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")  # the README's command, as a user runs it
    proc = jitlint("check", "--confirm", "--output-format", "json", "examples/", cwd=tmp_path)
    rows = json.loads(proc.stdout)
    verdicts = {(Path(r["path"]).name, r["line"], r["code"]): r["runtime"]["verdict"] for r in rows}
    assert len(verdicts) == 5 and ("train_loop.py", 45, "JIT103") in verdicts, proc.stderr
    assert set(verdicts.values()) == {"confirmed"}, verdicts


def test_an_error_pytest_raises_catches_is_raised_caught_under_run_pytest(tmp_path):
    pytest.importorskip("jax")
    (tmp_path / "test_totals.py").write_text(
        "from functools import partial\n"
        "\n"
        "import jax\n"
        "import jax.numpy as jnp\n"
        "import pytest\n"
        "\n"
        "\n"
        "@partial(jax.jit, static_argnames='axes')\n"
        "def total(x, axes):\n"
        "    return x.sum(axis=axes)\n"
        "\n"
        "\n"
        "def test_list_axes_are_rejected():\n"
        "    with pytest.raises(ValueError):\n"
        "        total(jnp.ones((2, 3)), axes=[0, 1])\n")
    proc = jitlint("check", "--confirm", "--output-format", "json", "test_totals.py",
                   "--run", "python -m pytest -q -p no:cacheprovider test_totals.py", cwd=tmp_path)
    [row] = json.loads(proc.stdout)
    assert row["code"] == "JIT301" and row["line"] == 15, row
    assert row["runtime"]["verdict"] == "raised ValueError (caught)", row["runtime"]


def test_eager_lax_control_flow_is_confirmed_by_the_programs_jax_builds_for_it(rows):
    # a helper's fori_loop with a fresh body: one scan program per call, at the lax call
    found = {r["line"]: r["runtime"] for r in rows
             if Path(r["path"]).name == "eager_control_flow.py" and r["code"] == "JIT520"}
    assert sorted(found) == sorted(line for line, _ in expected_findings(KINDS / "eager_control_flow.py"))
    helper, *library = (found[line] for line in sorted(found))
    assert (helper["verdict"], helper["compiles"], helper["calls"]) == ("confirmed", 4, 4)
    # optax's value_and_grad_from_state and L-BFGS update, at the calls in the loop
    assert all(r["verdict"] == "confirmed" and r["calls"] == 3 and r["compiles"] >= 3 for r in library)


def test_a_finding_on_a_default_is_confirmed_at_the_call_that_feeds_the_state_back(rows):
    found = runtime(rows, "weak_state_field.py", "JIT502")
    assert (found["verdict"], found["compiles"], found["calls"]) == ("confirmed", 2, 4)
