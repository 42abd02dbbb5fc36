# source: https://github.com/takayama-rado/trado_samples
# expect: unhashable-static at line 44
# runtime: ERROR ValueError
# why: example_fun3 derives a shape from the array's values, and marking the jax array static fails because arrays are unhashable: the call raises ValueError (non-hashable static argument), as the notebook shows.
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

def example_fun3(array, val):
    length = array.sum().astype(jnp.int32)
    return jnp.ones([length,]) * val

example_jit3 = jit(example_fun3, static_argnums=(0,))
arr = jnp.ones([10])
print(arr)
# This will fail.
try:
    print(example_jit3(arr, 4))
    _report({"jit(example_fun3)"}, 1)  # scaffolding
except Exception as inst:
    print(inst)
    print(f"ERROR {type(inst).__name__}")  # scaffolding
