# source: https://github.com/climate-analytics-lab/jax-gcm/commit/0c65af477ca986b0676300b129a5ba22a84264eb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The commit's fix: static_argnums=(0, 3, 4, 5) makes output_averages static, so the branch is chosen at trace time and run_from_state compiles once for 2 calls.

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


# --- end harness ---
import dataclasses  # scaffolding
from functools import partial

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class State:  # scaffolding: dinosaur.primitive_equations.State
    vorticity: jnp.ndarray
    sim_time: float = 0.0


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class BoundaryData:  # scaffolding: jcm BoundaryData
    sst: jnp.ndarray


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Predictions:  # scaffolding: jcm Predictions
    dynamics: jnp.ndarray
    times: jnp.ndarray = None

    def replace(self, **kw):
        return dataclasses.replace(self, **kw)


def trajectory_from_step(step_fn, outer_steps, inner_steps, start_with_input, post_process_fn):  # scaffolding: dinosaur.time_integration.trajectory_from_step
    def _trajectory(x):
        def outer(x, _):
            y = post_process_fn(x) if start_with_input else None
            x = jax.lax.fori_loop(0, inner_steps, lambda i, s: step_fn(s), x)
            return x, y
        return jax.lax.scan(outer, x, None, length=outer_steps)
    return _trajectory


averaged_trajectory_from_step = trajectory_from_step  # scaffolding: jcm's averaging integrator
dinosaur = type("dinosaur", (), {"time_integration": type("ti", (), {"trajectory_from_step": staticmethod(trajectory_from_step)})})  # scaffolding


class Model:
    def __init__(self, dt_days=0.5):  # scaffolding: the real constructor builds the dycore and physics
        self.dt_days = dt_days

    def _create_step_fn(self, boundaries, output_averages):  # scaffolding: a relaxation step instead of the dycore + physics
        def step_fn(state):
            return State(state.vorticity + self.dt_days * (boundaries.sst - state.vorticity),
                         state.sim_time + self.dt_days * 86400.0)
        return step_fn

    def _post_process(self, state, boundaries, output_averages):  # scaffolding
        return Predictions(dynamics=state.vorticity.mean(), times=None)

    # jcm/model.py (after the commit; docstrings cut, unit conversions written in days,
    # the averaged path's empty physics data dropped)
    def _get_integrate_fn(self, step_fn, outer_steps, inner_steps, post_process_fn, output_averages, **kwargs):
        trajectory_fn = averaged_trajectory_from_step if output_averages else dinosaur.time_integration.trajectory_from_step

        def _integrate_fn(state):
            integrate_fn = jax.jit(trajectory_fn(
                step_fn=step_fn,
                outer_steps=outer_steps,
                inner_steps=inner_steps,
                **kwargs,
                post_process_fn=post_process_fn
            ))
            return integrate_fn(state)

        return _integrate_fn

    @partial(jax.jit, static_argnums=(0, 3, 4, 5)) # Note: will not recompile if model fields change
    def run_from_state(self,
                       initial_state: State,
                       boundaries: BoundaryData,
                       save_interval=10.0,
                       total_time=120.0,
                       output_averages=False,
    ):
        step_fn = self._create_step_fn(boundaries, output_averages)

        inner_steps = int(save_interval / self.dt_days)
        outer_steps = int(total_time / save_interval)
        times = initial_state.sim_time / 86400.0 + save_interval * jnp.arange(outer_steps)

        integrate = self._get_integrate_fn(
            step_fn,
            outer_steps=outer_steps,
            inner_steps=inner_steps,
            start_with_input=True,
            post_process_fn=lambda state: self._post_process(state, boundaries, output_averages),
            output_averages=output_averages
        )
        final_modal_state, predictions = integrate(initial_state)
        return final_modal_state, predictions.replace(times=times)


# scaffolding: two runs with new boundary data, output_averages passed by keyword as Model.run does
model = Model()
state = State(jnp.zeros((4, 8)))
calls = 0
try:  # scaffolding
    for sst in (1.0, 2.0):
        final_modal_state, predictions = model.run_from_state(
            initial_state=state,
            boundaries=BoundaryData(jnp.full((4, 8), sst)),
            save_interval=10.0,
            total_time=120.0,
            output_averages=False,
        )
        calls += 1
    _report({"jit(run_from_state)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
