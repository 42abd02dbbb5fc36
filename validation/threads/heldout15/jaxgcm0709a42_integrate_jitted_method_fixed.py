# source: https://github.com/climate-analytics-lab/jax-gcm/commit/0709a423d2712bf0d4ba187416df3be39d879d5d
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's fix: a jitted _integrate method (static self, outer_steps, inner_steps) takes the boundaries and state as traced arguments, so the three runs share one compile.

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


dinosaur = type("dinosaur", (), {"time_integration": type("ti", (), {"trajectory_from_step": staticmethod(trajectory_from_step)})})  # scaffolding


class Model:
    def __init__(self, dt_days=0.5):  # scaffolding: the real constructor builds the dycore and physics
        self.dt_days = dt_days

    def _create_step_fn(self, boundaries):  # scaffolding: a relaxation step instead of the dycore + physics
        def step_fn(state):
            return State(state.vorticity + self.dt_days * (boundaries.sst - state.vorticity),
                         state.sim_time + self.dt_days * 86400.0)
        return step_fn

    def _post_process(self, state, boundaries):  # scaffolding
        return Predictions(dynamics=state.vorticity.mean(), times=None)

    # jcm/model.py (after the commit; docstring cut, units conversions written in days)
    @partial(jax.jit, static_argnums=(0, 1, 2)) # Will recompile if outer_steps or inner_steps change, but will not see changes to model fields
    def _integrate(self, outer_steps, inner_steps, boundaries, initial_modal_state):
        step_fn = self._create_step_fn(boundaries)
        integrate_fn = dinosaur.time_integration.trajectory_from_step(
            jax.checkpoint(step_fn),
            outer_steps=outer_steps,
            inner_steps=inner_steps,
            start_with_input=True,
            post_process_fn=lambda state: self._post_process(state, boundaries)
        )
        return integrate_fn(initial_modal_state)

    def run_from_state(self,
                       initial_state: State = None,
                       boundaries: BoundaryData=None,
                       save_interval=10.0,
                       total_time=120.0,
    ):
        initial_modal_state = initial_state  # scaffolding: _prepare_initial_modal_state for PhysicsState inputs cut
        boundaries = boundaries

        inner_steps = int(save_interval / self.dt_days)
        outer_steps = int(total_time / save_interval)
        times = initial_modal_state.sim_time / 86400.0 + save_interval * jnp.arange(outer_steps)

        final_modal_state, predictions = self._integrate(
            outer_steps,
            inner_steps,
            boundaries,
            initial_modal_state
        )
        return final_modal_state, predictions.replace(times=times)


# scaffolding: three runs with new boundary data of the same shape
model = Model()
state = State(jnp.zeros((4, 8)))
calls = 0  # scaffolding
for sst in (1.0, 2.0, 3.0):
    final_modal_state, predictions = model.run_from_state(
        initial_state=state,
        boundaries=BoundaryData(jnp.full((4, 8), sst)),
        save_interval=10.0,
        total_time=120.0,
    )
    calls += 1
_report({"jit(_trajectory)", "jit(_integrate)"}, calls)  # scaffolding
