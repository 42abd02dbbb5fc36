# source: https://github.com/vgraman0/learning-jax/blob/97cb56c6a2cf8bd4cb998beca448edf329c6f2b3/JAX/sharp_bits.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: the print runs only while tracing; jit(impure_function) compiles once for float scalars and once for the 1-element array, the second call reuses the first trace.
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
import numpy as np
from jax import jit
from jax import lax
from jax import random
import jax
import jax.numpy as jnp

def impure_function(x):
    print("Executing function")
    return x

print("First call: ", jit(impure_function)(4.))
print("Second call: ", jit(impure_function)(5.))
print("Third call: ", jit(impure_function)(jnp.array([5.])))
_report({"jit(impure_function)"}, 3)  # scaffolding
