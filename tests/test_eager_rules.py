"""JIT520, measured: lax control flow run outside jit in a Python loop compiles its body on
every iteration; jitting the step (or a module-level body) compiles once.  Real JAX/optax."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from helpers import FIXTURES, declared_compiles, expected_findings, expected_in_group, run_all_counting_compiles

EAGER = sorted((FIXTURES / "eager").glob("*.py"))


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("optax")
    return run_all_counting_compiles(EAGER)


def control_flow_compiles(report: dict) -> Counter:
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    return Counter(e["fun_name"] for e in report["compiles"]
                   if e["fun_name"] in ("jit(scan)", "jit(while)", "jit(cond)"))


def test_eager_lbfgs_compiles_its_line_search_every_step(reports):
    eager = reports[FIXTURES / "eager" / "lbfgs_eager_loop.py"]
    jitted = reports[FIXTURES / "eager" / "lbfgs_jitted_step_ok.py"]
    per_step = control_flow_compiles(eager)
    assert per_step["jit(while)"] == 4 and per_step["jit(cond)"] == 4  # 4 steps: 1 each
    assert len(eager["compiles"]) > 5 * len(jitted["compiles"])
    assert control_flow_compiles(jitted) == Counter()  # compiled inside the step
    assert Counter(e["fun_name"] for e in jitted["compiles"])["jit(step)"] <= 2


def test_helper_with_local_body_compiles_per_call(reports):
    local = control_flow_compiles(reports[FIXTURES / "eager" / "helper_fori_loop_local_body.py"])
    global_body = control_flow_compiles(reports[FIXTURES / "eager" / "helper_fori_loop_global_body_ok.py"])
    assert local["jit(scan)"] == 7  # 5 calls in the loop, 2 in the check
    assert global_body["jit(scan)"] == 1


def test_switch_with_fresh_branches_compiles_per_call(reports):
    """jax#5210: new branch lambdas per call compile a cond per call; module-level branches once."""
    fresh = control_flow_compiles(reports[FIXTURES / "eager" / "helper_switch_fresh_branches.py"])
    kept = control_flow_compiles(reports[FIXTURES / "eager" / "helper_switch_module_branches_ok.py"])
    assert fresh["jit(cond)"] == 5
    assert kept["jit(cond)"] == 1


def test_nnx_cond_compiles_per_eager_call_even_with_the_same_branches(reports):
    """flax#5512: nnx.cond wraps the branches anew on every call; inside a jitted step, once."""
    eager = control_flow_compiles(reports[FIXTURES / "eager" / "nnx_cond_eager_loop_same_branches.py"])
    jitted = control_flow_compiles(reports[FIXTURES / "eager" / "nnx_cond_inside_jitted_step_ok.py"])
    assert eager["jit(cond)"] == 3
    assert jitted == Counter()


def test_staticmethod_with_fresh_branches_compiles_per_call(reports):
    """netket#2043: a staticmethod called as ``Class.method`` in the loop, lax.cond over lambdas."""
    assert control_flow_compiles(reports[FIXTURES / "eager" / "staticmethod_cond_fresh_branches.py"])["jit(cond)"] == 4


def test_scan_over_own_bound_method_compiles_per_eager_call(reports):
    """flowMC #133: each ``self.sample_loop`` access is a new bound method; jitted once, one."""
    eager = control_flow_compiles(reports[FIXTURES / "eager" / "method_scan_over_own_bound_method.py"])
    jitted = reports[FIXTURES / "eager" / "method_scan_over_own_bound_method_ok.py"]
    assert eager["jit(scan)"] == 4  # 4 rounds
    assert control_flow_compiles(jitted) == Counter()
    assert Counter(e["fun_name"] for e in jitted["compiles"])["jit(sample)"] == 1


def test_timed_loop_compiles_on_every_call(reports):
    """Timing the calls is no reason to recompile: each timed call compiles the loop again."""
    timed = control_flow_compiles(reports[FIXTURES / "eager" / "timed_helper_fori_loop.py"])
    assert timed["jit(scan)"] == 4  # 4 timed calls


def test_jaxopt_run_compiles_its_loop_per_eager_run(reports):
    eager = control_flow_compiles(reports[FIXTURES / "eager" / "jaxopt_solver_run_eager_loop.py"])
    jitted = control_flow_compiles(reports[FIXTURES / "eager" / "jaxopt_solver_run_jitted_ok.py"])
    assert eager["jit(while)"] == 3 and jitted == Counter()  # inside fit's one compile


def test_benchmark_loop_recompiles_on_purpose_and_is_quiet(reports):
    path = FIXTURES / "eager" / "benchmark_loop_ok.py"
    assert control_flow_compiles(reports[path])["jit(scan)"] == 5  # one per cleared cache, 2 swept shapes
    assert expected_findings(path) == set()


@pytest.mark.parametrize("path", EAGER, ids=lambda p: p.name)
def test_flagged_exactly_when_it_recompiles_by_mistake(path: Path):
    """By default; a finding of the opt-in group unknown-callers may be false (its callers
    are not seen)."""
    flagged = expected_findings(path) - expected_in_group(path) != set()
    assert flagged == (not path.stem.endswith("_ok"))


def test_a_function_kept_by_a_library_object_runs_traced_there(reports):
    """update_fn inside optax.GradientTransformation, used in a jitted step: its cond loop is
    traced with the step, nothing compiles per iteration (the opt-in finding is false here)."""
    path = FIXTURES / "eager" / "update_fn_kept_by_optax_ok.py"
    assert control_flow_compiles(reports[path]) == Counter()
    assert Counter(e["fun_name"] for e in reports[path]["compiles"])["jit(step)"] == 1
    assert expected_in_group(path) == expected_findings(path) != set()


def test_chained_backtracking_line_search_compiles_every_step(reports):
    path = FIXTURES / "eager" / "backtracking_linesearch_chain_eager.py"
    assert control_flow_compiles(reports[path])["jit(while)"] == 5  # 5 eager updates
    assert {code for _, code in expected_findings(path)} == {"JIT520"}


def test_env_step_is_quiet_when_only_used_jitted(reports):
    """`jax.jit(env.step)`: the substep loop is traced once, no lax loop compiles on its own;
    stepping the same environment eagerly compiles the integrator's scan on every substep."""
    jitted = reports[FIXTURES / "eager" / "env_step_jitted_ok.py"]
    eager = reports[FIXTURES / "eager" / "env_step_eager.py"]
    assert control_flow_compiles(jitted) == Counter()
    assert Counter(e["fun_name"] for e in jitted["compiles"])["jit(step)"] == 1
    assert control_flow_compiles(eager)["jit(scan)"] == 15  # 5 steps x 3 substeps


def test_literal_sweep_through_a_name_compiles_once_per_size(reports):
    sweep = control_flow_compiles(reports[FIXTURES / "eager" / "sweep_through_name_ok.py"])
    repeated = control_flow_compiles(reports[FIXTURES / "eager" / "sweep_through_name_repeated.py"])
    assert sweep["jit(scan)"] == 3  # three sizes, three programs: each compile is needed
    assert repeated["jit(scan)"] == 4  # one program, compiled on each of 4 calls


DECLARING = [p for p in EAGER if declared_compiles(p)]


@pytest.mark.parametrize("path", DECLARING, ids=lambda p: p.name)
def test_declared_control_flow_compiles(path: Path, reports):
    """``# runtime: jit(cond) compiles 6 times``: a library call that runs lax control flow
    (jaxfacts.LAX_LOOP_LIBRARY_CALLS) compiles on every eager call, once when jitted;
    ``# runtime: step compiles 1 times`` counts the user's jitted ``step``."""
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = Counter(e["fun_name"] for e in report["compiles"])
    for name, count in declared_compiles(path).items():
        program = name if name.startswith("jit(") else f"jit({name})"
        assert compiles[program] == count, (name, compiles)


def test_lax_cond_in_a_method_jitted_by_a_class_decorator_compiles_with_it(reports):
    """evox's `@jit_class` jits `tell`: its `lax.cond` over `self._decomposition` (a new bound
    method per access) is traced with `tell`, once, never on its own per step."""
    report = reports[FIXTURES / "eager" / "lax_cond_in_method_of_jit_class_ok.py"]
    assert control_flow_compiles(report) == Counter()
    assert Counter(e["fun_name"] for e in report["compiles"])["jit(tell)"] == 1


def test_mcmc_rerun_on_fresh_data_without_jit_model_args_compiles_every_run(reports):
    """Without jit_model_args=True each run on new data compiles the sampler again: its
    `_body_fn` with the progress bar, its `_fori_collect_loop` where numpyro turns the bar off
    (CI, pytest-xdist): 4 runs, 4 compiles either way."""
    report = reports[FIXTURES / "eager" / "mcmc_rerun_on_fresh_data_without_jit_model_args.py"]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = Counter(e["fun_name"] for e in report["compiles"])
    assert compiles["jit(_body_fn)"] + compiles["jit(_fori_collect_loop)"] == 4, compiles


def test_scan_in_call_of_self_compiles_per_generated_token(reports):
    """A plain class's `__call__` with a scan over a local body, called as `self(idx)` per token
    outside jit: a compile per token (5); the forward pass jitted once: one compile."""
    eager = control_flow_compiles(reports[FIXTURES / "eager" / "call_of_self_runs_scan_with_local_body.py"])
    jitted = reports[FIXTURES / "eager" / "call_of_self_jitted_scan_ok.py"]
    assert eager["jit(scan)"] == 5
    assert control_flow_compiles(jitted) == Counter()
    assert Counter(e["fun_name"] for e in jitted["compiles"])["jit(forward)"] == 1


def test_lax_map_compiles_per_eager_call_even_with_a_module_function(reports):
    """lax.map wraps its function anew on every call: 5 chunks, 5 scans; jitted once, none of
    its own (the scan is part of the jitted chunk evaluation)."""
    eager = control_flow_compiles(reports[FIXTURES / "eager" / "lax_map_of_module_function_in_chunk_loop.py"])
    jitted = reports[FIXTURES / "eager" / "lax_map_jitted_once_for_chunks_ok.py"]
    assert eager["jit(scan)"] == 5
    assert control_flow_compiles(jitted) == Counter()
    assert Counter(e["fun_name"] for e in jitted["compiles"])["jit(<lambda>)"] == 1
