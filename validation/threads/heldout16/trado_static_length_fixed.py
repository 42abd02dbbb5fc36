# source: https://github.com/takayama-rado/trado_samples
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: with static_argnums=(0,) length is a Python int at trace time, so the shape is concrete; the two lengths 10 and 5 are two programs and compile once each.
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


# Standard modules.
import sys

# CV/ML.
import numpy as np

import jax
import jax.numpy as jnp
from jax import jit

# Enable float64.
jax.config.update("jax_enable_x64", True)

def example_fun1(length, val):
    return jnp.ones([length,]) * val

example_jit1 = jit(example_fun1, static_argnums=(0,))
print(example_jit1(10, 4))
print(example_jit1(5, 4))
_report({"jit(example_fun1)"}, 2)  # scaffolding
