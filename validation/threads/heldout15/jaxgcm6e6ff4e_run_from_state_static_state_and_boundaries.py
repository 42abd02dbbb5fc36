# source: https://github.com/climate-analytics-lab/jax-gcm/commit/6e6ff4e062bac0b492298007281239c19003f901
# expect: bad-static-spec at line 60
# runtime: ERROR ValueError
# why: static_argnums=(0, 1, 2) marks the initial state and the boundary data (dataclass pytrees of arrays) as static instead of the two intervals, so calling run_from_state raises ValueError (non-hashable static argument, reported for BoundaryData).

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
class State:  # scaffolding: dinosaur.primitive_equations.State (a dataclass pytree of arrays)
    vorticity: jnp.ndarray
    sim_time: float = 0.0


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class BoundaryData:  # scaffolding: jcm BoundaryData
    sst: jnp.ndarray


class Model:
    def __init__(self, dt_days=0.5):  # scaffolding: the real constructor builds the dycore and physics
        self.dt_days = dt_days

    def _create_step_fn(self, boundaries):  # scaffolding: a relaxation step instead of the dycore + physics
        def step_fn(state):
            return State(state.vorticity + self.dt_days * (boundaries.sst - state.vorticity),
                         state.sim_time + self.dt_days * 86400.0)
        return step_fn

    # jcm/model.py (before the commit; docstring cut, integrator replaced by a scan)
    @partial(jax.jit, static_argnums=(0, 1, 2)) # Note: will not recompile if model fields change
    def run_from_state(self,
                       initial_state: State,
                       boundaries: BoundaryData,
                       save_interval=10.0,
                       total_time=120.0,
    ):
        step_fn = self._create_step_fn(boundaries)

        inner_steps = int(save_interval / self.dt_days)
        outer_steps = int(total_time / save_interval)

        def outer(state, _):  # scaffolding: dinosaur.time_integration.trajectory_from_step
            state = jax.lax.fori_loop(0, inner_steps, lambda i, s: step_fn(s), state)
            return state, state.vorticity.mean()

        final_modal_state, predictions = jax.lax.scan(outer, initial_state, None, length=outer_steps)
        return final_modal_state, predictions


# scaffolding: Model.resume's call (keyword arguments), twice with new boundary data
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
        )
        calls += 1
    _report({"jit(run_from_state)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
