# source: https://github.com/vgraman0/learning-jax/blob/97cb56c6a2cf8bd4cb998beca448edf329c6f2b3/JAX/sharp_bits.ipynb
# expect: stale-closure at line 34
# runtime: COMPILES 2 CALLS 3
# why: impure_globals reads the global g at trace time; after g = 10. the second call (same input type) reuses the trace and returns 5.0.
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

g = 0.
def impure_globals(x):
    return x + g

print("First call: ", jit(impure_globals)(4.))
g = 10.

print("Second call: ", jit(impure_globals)(5.))

print("Third call: ", jit(impure_globals)(jnp.array([5.])))
_report({"jit(impure_globals)"}, 3)  # scaffolding
