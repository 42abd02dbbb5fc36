"""JIT1xx claims, measured: each positive fixture really compiles on every iteration or call,
and each negative compiles each jitted function once.  Real JAX on the CPU."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import (FIXTURES, declared_compiles, expected_findings, missing_requirement, run_all_counting_compiles,
                     run_all_outputs, user_function_compiles)

FRESH = sorted((FIXTURES / "fresh").glob("*.py"))


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    return run_all_counting_compiles(FRESH)


@pytest.mark.parametrize("path", FRESH, ids=lambda p: p.name)
def test_fixture_runs_and_compiles_as_claimed(path: Path, reports):
    missing = missing_requirement(path)
    if missing:  # ``# requires: xgboost``: the test extras install it
        pytest.skip(f"{missing} is not installed")
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = user_function_compiles(report, path)
    if expected_findings(path):
        # Every scenario runs 5 iterations or calls: a recompile each time means >= 5.
        assert compiles and max(compiles.values()) >= 5, compiles
    else:
        declared = declared_compiles(path)
        for name, count in compiles.items():
            assert count == declared.get(name, 1), (name, compiles)


def test_bound_method_advice_never_says_jit_once_when_that_freezes_state(tmp_path):
    """JIT104's usual fix, `self._fwd = jax.jit(self.forward)` in `__init__`, freezes the
    attributes `forward` reads at the first trace. Where the class changes them later, the
    advice is a jitted function of the state; measured: the jit-once variant prints the first
    weights' result, the advised fix (ok_pure_function_of_state.py) the updated one."""
    from jitlint.config import Settings
    from jitlint.engine import lint_file

    path = FIXTURES / "fresh" / "bound_method_reads_changing_state.py"
    [finding] = lint_file(str(path), Settings()).diagnostics
    assert "jitting it once would freeze `self.w` (changed by `update`)" in finding.message
    assert "in __init__" not in finding.message
    [plain] = lint_file(str(FIXTURES / "fresh" / "bound_method_in_call.py"), Settings()).diagnostics
    assert "jit it once (e.g. in __init__)" in plain.message  # nothing there changes later

    pytest.importorskip("jax")
    jitted_once = tmp_path / "jitted_once.py"
    jitted_once.write_text(path.read_text()
                           .replace("        self.w = w\n", "        self.w = w\n        self._fwd = jax.jit(self.forward)\n")
                           .replace("return jax.jit(self.forward)(x)", "return self._fwd(x)"))
    scripts = (jitted_once, FIXTURES / "fresh" / "ok_pure_function_of_state.py")
    ran = run_all_outputs(scripts)
    outputs = [ran[script].split() for script in scripts]
    assert outputs[0] == ["3.0"], outputs  # the first weights, frozen at the first trace
    assert outputs[1] != outputs[0] and float(outputs[1][0]) < 3.0, outputs


def test_loop_step_advice_passes_the_iterations_arrays_instead_of_hoisting(tmp_path):
    """A jitted step defined in a loop that calls a loss closing over the iteration's sample:
    "hoist the jit" would freeze the first sample, so the advice is to pass the arrays.
    Measured: the hoisted step repeats the first repetition's estimate; the advised fix
    (ok_step_takes_draws_as_arguments.py) gives the per-repetition estimates."""
    from jitlint.config import Settings
    from jitlint.engine import lint_file

    path = FIXTURES / "fresh" / "loop_step_calls_loss_closing_over_draws.py"
    [finding] = lint_file(str(path), Settings()).diagnostics
    assert "capturing that iteration's arrays `fx`, `x`" in finding.message
    assert "pass them as arguments (to `loss` too)" in finding.message
    assert "hoist the jit" not in finding.message

    pytest.importorskip("jax")
    source = path.read_text()
    step = source[source.index("    @jax.jit"):source.index("    theta = jnp.zeros")]
    hoisted = tmp_path / "hoisted.py"
    hoisted.write_text(source.replace(step, "").replace(
        "key = jax.random.PRNGKey(0)\n", "\n".join(line[4:] for line in step.splitlines()) + "\n\nkey = jax.random.PRNGKey(0)\n"))
    scripts = (path, hoisted, FIXTURES / "fresh" / "ok_step_takes_draws_as_arguments.py")
    ran = run_all_outputs(scripts)
    per_repetition, frozen, fixed = (ran[script].split() for script in scripts)
    assert len(set(frozen)) == 1 and frozen[0] == per_repetition[0], frozen
    assert fixed == per_repetition and len(set(fixed)) > 1, (fixed, per_repetition)
