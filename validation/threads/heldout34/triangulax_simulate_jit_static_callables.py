# source: https://github.com/nikolas-claussen/triangulax/blob/e11a4563f12de2e4a5bcd3ecf57ee2d26ae2960d/nbs/src/10_simulation.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: simulate is jitted with the step and measure functions as static arguments; they are the same module-level functions on every call, so four runs compile once.

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
import dataclasses

import jax
import jax.numpy as jnp
from collections.abc import Callable
from typing import TypeVar

State = TypeVar("State")
Log = TypeVar("Log")


def simulate(step_fn: Callable,
             measure_fn: Callable,
             init: State,
             timepoints: jax.Array,
             ) -> tuple:  # (jaxtyping annotations and docstring trimmed)
    def _scan_fn(state: State, t_next: jax.Array) -> tuple:
        new_state = step_fn(state, t_next)
        log = measure_fn(new_state)
        return new_state, log

    return jax.lax.scan(_scan_fn, init, timepoints)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class OscState:
    x: jax.Array
    v: jax.Array
    t: jax.Array

@jax.tree_util.register_dataclass
@dataclasses.dataclass
class OscLog:
    x: jax.Array
    energy: jax.Array

gamma = 0.1

def osc_step(state: OscState, t_next: jax.Array) -> OscState:
    dt = t_next - state.t
    a = -state.x - gamma * state.v
    return OscState(x=state.x + dt * state.v,
                    v=state.v + dt * a,
                    t=t_next)

def osc_measure(state: OscState) -> OscLog:
    return OscLog(x=state.x,
                  energy=0.5 * state.x**2 + 0.5 * state.v**2)

dt = 0.01
timepoints = jnp.arange(0.0, 50.0, dt)
init = OscState(x=jnp.array(1.0), v=jnp.array(0.0), t=timepoints[0])

# JIT
simulate_jit = jax.jit(simulate, static_argnums=(0, 1))
final_jit, logs_jit = simulate_jit(osc_step, osc_measure, init, timepoints)

for x0 in [2.0, 3.0, 4.0]:  # scaffolding: more runs with other initial positions
    init = OscState(x=jnp.array(x0), v=jnp.array(0.0), t=timepoints[0])  # scaffolding
    final_jit, logs_jit = simulate_jit(osc_step, osc_measure, init, timepoints)  # scaffolding
_report({"jit(simulate)"}, 4)  # scaffolding
