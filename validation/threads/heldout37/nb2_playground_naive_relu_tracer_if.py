# source: https://github.com/gleyba/jax_playground/blob/2a9c098d8707ba536b570fea63a6e23b23ad21a9/playground.py
# expect: trace-time-error at line 51
# runtime: ERROR TracerBoolConversionError
# why: naive_relu is decorated with @jax.jit and branches with a Python `if x > 0` on its traced argument, which raises TracerBoolConversionError at trace time.

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
import time
import jax
import jax.numpy as jnp
from jax import random
from jax import grad, jit
import numpy as np

@jax.jit
def add_one(x: jax.Array) -> jax.Array:
    print("I'm being traced!")
    y = x + 1
    return y


print("First call")
print("Result:", add_one(jnp.array([0.0])))

print("\nSubsequent call with array of the same shape")
print("Result:", add_one(jnp.array([0.0])))

@jax.jit
def naive_relu(x: float) -> float:
    if x > 0:
        return x
    else:
        return 0

try:
    naive_relu(10)
    _report({"jit(naive_relu)"}, 1)  # scaffolding
except Exception as ex:
    print(f"{type(ex).__name__}")
    print(f"ERROR {type(ex).__name__}")  # scaffolding
