# source: https://github.com/OpenSourceEconomics/dcegm/commit/8d65dd29e78c054256fd005fdecafa6bc614cff2
# expect: jit-in-loop-or-body at line 70
# runtime: COMPILES 12 CALLS 4
# why: backward_induction wraps fresh lambdas in jax.jit on every call, and Model.solve calls it eagerly, so each solve in an estimation loop compiles the grid, last-two-period and scan functions again.
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")
from typing import Any, Callable, Dict, Tuple

import jax
import jax.lax
import jax.numpy as jnp


# scaffolding: small stand-ins for the dcegm kernels that backward_induction calls
def calc_cont_grids_next_period(model_structure, model_config, income_shock_draws_unscaled, params, model_funcs):
    return jnp.outer(model_config["wealth_grid"], 1.0 + params["interest_rate"] + 0.1 * income_shock_draws_unscaled)


def create_solution_container(continuous_states_info, n_total_wealth_grid, n_state_choices):
    shape = (n_state_choices, n_total_wealth_grid)
    return jnp.zeros(shape), jnp.zeros(shape), jnp.zeros(shape)


def solve_last_two_periods(params, continuous_states_info, cont_grids_next_period, income_shock_weights, model_funcs,
                           last_two_period_batch_info, value_solved, policy_solved, endog_grid_solved, debug_info):
    last = model_funcs["utility"](cont_grids_next_period @ income_shock_weights, params)
    return value_solved.at[-1].set(last), policy_solved.at[-1].set(last), endog_grid_solved.at[-1].set(last)


def solve_single_period(carry, xs, params, continuous_grids_info, cont_grids_next_period, model_funcs,
                        income_shock_weights, debug_info):
    value_solved, policy_solved, endog_grid_solved = carry
    state_choice_idx, child_idx = xs[0], xs[4]
    cont = params["beta"] * value_solved[child_idx] + model_funcs["utility"](cont_grids_next_period @ income_shock_weights, params)
    return (value_solved.at[state_choice_idx].set(cont), policy_solved.at[state_choice_idx].set(0.5 * cont),
            endog_grid_solved.at[state_choice_idx].set(cont)), ()


def backward_induction(
    params: Dict[str, float],
    income_shock_draws_unscaled: jnp.ndarray,
    income_shock_weights: jnp.ndarray,
    model_config: Dict[str, Any],
    model_funcs: Dict[str, Callable],
    model_structure: Dict[str, Any],
    batch_info: Dict[str, Any],
) -> Tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
    """Do backward induction and solve for optimal policy and value function."""
    continuous_states_info = model_config["continuous_states_info"]

    #
    calc_grids_jit = jax.jit(
        lambda income_shock_draws, params_inner: calc_cont_grids_next_period(
            model_structure=model_structure,
            model_config=model_config,
            income_shock_draws_unscaled=income_shock_draws,
            params=params_inner,
            model_funcs=model_funcs,
        )
    )

    cont_grids_next_period = calc_grids_jit(income_shock_draws_unscaled, params)

    (
        value_solved,
        policy_solved,
        endog_grid_solved,
    ) = create_solution_container(
        continuous_states_info=model_config["continuous_states_info"],
        # Read out grid size
        n_total_wealth_grid=model_config["tuning_params"]["n_total_wealth_grid"],
        n_state_choices=model_structure["state_choice_space"].shape[0],
    )

    # Solve the last two periods using lambda to capture static arguments
    solve_last_two_period_jit = jax.jit(
        lambda params_inner, cont_grids, weights, val_solved, pol_solved, endog_solved: solve_last_two_periods(
            params=params_inner,
            continuous_states_info=continuous_states_info,
            cont_grids_next_period=cont_grids,
            income_shock_weights=weights,
            model_funcs=model_funcs,
            last_two_period_batch_info=batch_info["last_two_period_info"],
            value_solved=val_solved,
            policy_solved=pol_solved,
            endog_grid_solved=endog_solved,
            debug_info=None,
        )
    )

    (
        value_solved,
        policy_solved,
        endog_grid_solved,
    ) = solve_last_two_period_jit(
        params,
        cont_grids_next_period,
        income_shock_weights,
        value_solved,
        policy_solved,
        endog_grid_solved,
    )

    # If it is a two period model we are done.
    if batch_info["two_period_model"]:
        return value_solved, policy_solved, endog_grid_solved

    # Create JIT-compiled single period solver using lambda
    solve_single_period_jit = jax.jit(
        lambda carry, xs: solve_single_period(
            carry=carry,
            xs=xs,
            params=params,
            continuous_grids_info=continuous_states_info,
            cont_grids_next_period=cont_grids_next_period,
            model_funcs=model_funcs,
            income_shock_weights=income_shock_weights,
            debug_info=None,
        )
    )

    def partial_single_period(carry, xs):
        return solve_single_period_jit(carry, xs)

    for id_segment in range(batch_info["n_segments"]):
        segment_info = batch_info[f"batches_info_segment_{id_segment}"]

        carry_start = (
            value_solved,
            policy_solved,
            endog_grid_solved,
        )

        final_carry, _ = jax.lax.scan(
            f=partial_single_period,
            init=carry_start,
            xs=(
                segment_info["batches_state_choice_idx"],
                segment_info["child_state_choices_to_aggr_choice"],
                segment_info["child_states_to_integrate_stochastic"],
                segment_info["child_state_choice_idxs_to_interp"],
                segment_info["child_states_idxs"],
                segment_info["state_choices"],
                segment_info["state_choices_childs"],
            ),
        )

        if not segment_info["batches_cover_all"]:
            last_batch_info = segment_info["last_batch_info"]
            extra_final_carry, () = partial_single_period(
                carry=final_carry,
                xs=(
                    last_batch_info["state_choice_idx"],
                    last_batch_info["child_state_choices_to_aggr_choice"],
                    last_batch_info["child_states_to_integrate_stochastic"],
                    last_batch_info["child_state_choice_idxs_to_interp"],
                    last_batch_info["child_states_idxs"],
                    last_batch_info["state_choices"],
                    last_batch_info["state_choices_childs"],
                ),
            )

            (
                value_solved,
                policy_solved,
                endog_grid_solved,
            ) = extra_final_carry
        else:
            (
                value_solved,
                policy_solved,
                endog_grid_solved,
            ) = final_carry

    return (
        value_solved,
        policy_solved,
        endog_grid_solved,
    )


class Model:  # scaffolding: the part of dcegm.interfaces.model_class.Model used by solve()
    def __init__(self, model_config, model_funcs, model_structure, batch_info, n_quad_points=5):
        self.model_config = model_config
        self.model_funcs = model_funcs
        self.model_structure = model_structure
        self.batch_info = batch_info
        self.income_shock_draws_unscaled = jnp.linspace(-1.5, 1.5, n_quad_points)
        self.income_shock_weights = jnp.full(n_quad_points, 1.0 / n_quad_points)

    def backward_induction_inner_jit(self, params):
        return backward_induction(
            params=params,
            income_shock_draws_unscaled=self.income_shock_draws_unscaled,
            income_shock_weights=self.income_shock_weights,
            model_config=self.model_config,
            batch_info=self.batch_info,
            model_funcs=self.model_funcs,
            model_structure=self.model_structure,
        )

    def solve(self, params):
        value, policy, endog_grid = self.backward_induction_inner_jit(params)  # scaffolding: process_params and pickling left out
        return {"value": value, "policy": policy, "endog_grid": endog_grid}


n_periods, n_grid = 6, 20  # scaffolding: a 6-period model, one state-choice per period
segment = {
    "batches_state_choice_idx": jnp.arange(n_periods - 2, 0, -1)[:, None] - 1,
    "child_state_choices_to_aggr_choice": jnp.zeros((n_periods - 2, 1), dtype=jnp.int32),
    "child_states_to_integrate_stochastic": jnp.zeros((n_periods - 2, 1), dtype=jnp.int32),
    "child_state_choice_idxs_to_interp": jnp.zeros((n_periods - 2, 1), dtype=jnp.int32),
    "child_states_idxs": jnp.arange(n_periods - 1, 1, -1)[:, None] - 1,
    "state_choices": jnp.zeros((n_periods - 2, 1), dtype=jnp.int32),
    "state_choices_childs": jnp.zeros((n_periods - 2, 1), dtype=jnp.int32),
    "batches_cover_all": True,
}
model = Model(
    model_config={"continuous_states_info": {}, "tuning_params": {"n_total_wealth_grid": n_grid},
                  "wealth_grid": jnp.linspace(0.1, 10.0, n_grid)},
    model_funcs={"utility": lambda c, params: jnp.log(c) - params["disutil"]},
    model_structure={"state_choice_space": jnp.zeros((n_periods, 2))},
    batch_info={"two_period_model": False, "n_segments": 1, "batches_info_segment_0": segment,
                "last_two_period_info": None},
)
for it in range(4):  # scaffolding: an estimation loop solving the model at new parameters
    params = {"beta": 0.95, "interest_rate": 0.03 + 0.001 * it, "disutil": 0.2}
    sol = model.solve(params)
_report({"jit(<lambda>)", "jit(scan)"}, 4)  # scaffolding
