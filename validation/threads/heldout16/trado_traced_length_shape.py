# source: https://github.com/takayama-rado/trado_samples
# expect: trace-time-error at line 41
# runtime: ERROR TypeError
# why: length is a traced argument of jit(example_fun1), so jnp.ones([length,]) gets a traced shape and raises TypeError ('Shapes must be 1D sequences of concrete values'), as the notebook shows ('This will fail.').
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

example_jit1 = jit(example_fun1)
# This will fail.
try:
    print(example_jit1(10, 4))
    _report({"jit(example_fun1)"}, 1)  # scaffolding
except Exception as inst:
    print(inst)
    print(f"ERROR {type(inst).__name__}")  # scaffolding
