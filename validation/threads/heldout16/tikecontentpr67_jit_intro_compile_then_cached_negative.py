# source: https://github.com/spacetelescope/tike_content/pull/67
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the intro notebook jits jax_function once and calls it again with the same array, so the compile happens on the first run only: 1 compile for 4 calls (grad of the unjitted function does not compile jax_function under jit).
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
import jax  # scaffolding: the notebook calls jax.jit without importing jax
import jax.numpy as jnp
import numpy as np
import time

from jax import grad


def jax_function(x):
    """
    A simple JAX-based function that invokes some trigonometric functions.

    Inputs
    ------
        :x: (array) input array, of floats.

    Outputs
    -------
        :result: (array) result of applying trigonometric functions. Should be equal to 1.
    """
    return jnp.sin(x) ** 2 + jnp.cos(x) ** 2


x_jax = jnp.linspace(0, 100, 10_000)  # scaffolding: 10_000 points instead of 10_000_000

f_jax_jit = jax.jit(jax_function)

# First JAX JIT run (includes compilation cost)
y_jax = f_jax_jit(x_jax).block_until_ready()  # .block_until_ready ensures timing is correct

for _ in range(3):  # scaffolding: the %%timeit cell, three runs
    # Subsequent JAX JIT run (cached, fast!)
    y_jax = f_jax_jit(x_jax).block_until_ready()

grad_func = grad(jax_function)
grad_func(1.0)
_report({"jit(jax_function)"}, 4)  # scaffolding
