# source: https://github.com/rlouf/mcx/issues/58
# expect: unhashable-static at line 39
# runtime: ERROR ValueError
# why: run marks all four parameters static, including initial_position and initial_momentum, which are arrays; arrays are not hashable, so the first call raises ValueError (non-hashable static arguments, an error since JAX 0.2.6 as the issue says).
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


from functools import partial
from typing import Callable, Tuple

import jax
from jax import numpy as np

np.DeviceArray = jax.Array  # scaffolding: jnp.DeviceArray, used in the annotations, no longer exists

__all__ = ["longest_batch_before_turn"]


def longest_batch_before_turn(integrator_step: Callable) -> Callable:
    @partial(jax.jit, static_argnums=(0, 1, 2, 3))
    def run(
        initial_position: np.DeviceArray,
        initial_momentum: np.DeviceArray,
        step_size: float,
        num_integration_steps: int,
    ):
        def cond(state: Tuple) -> bool:
            iteration, position, momentum = state
            return is_u_turn or iteration == num_integration_steps

        def update(state: Tuple) -> Tuple:
            iteration, position, momentum = state
            iteration += 1
            position, momentum = integrator_step(position, momentum, step_size, 1)
            return (iteration, position, momentum)

        result = jax.lax.while_loop(
            cond, update, (0, initial_position, initial_momentum)
        )

        return result[0]

    return run


@partial(jax.jit, static_argnums=(0, 2))
def is_u_turn(
    initial_position: np.DeviceArray,
    position: np.DeviceArray,
    inverse_mass_matrix: np.DeviceArray,
    momentum: np.DeviceArray,
) -> bool:
    """Detect when the trajectory starts turning back towards the point
    where it started.
    """
    v = np.multiply(inverse_mass_matrix, momentum)
    position_vec = position - initial_position
    projection = np.multiply(position_vec, v)
    return np.where(projection < 0, True, False)


def velocity_verlet(position, momentum, step_size, n):  # scaffolding: an integrator step
    momentum = momentum - 0.5 * step_size * position  # scaffolding
    position = position + step_size * momentum  # scaffolding
    return position, momentum - 0.5 * step_size * position  # scaffolding


run = longest_batch_before_turn(velocity_verlet)  # scaffolding
try:  # scaffolding
    run(np.ones(2), np.ones(2), 0.1, 10)  # scaffolding
    _report({"jit(run)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
