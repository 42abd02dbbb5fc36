# source: https://github.com/hsf-india-may2023/JAX_in_HEP
# expect: stale-closure at line 34
# runtime: COMPILES 2 CALLS 3
# why: fn reads the global bias at trace time; after bias is raised by 10 the second same-shape call reuses the cached trace and returns -95.0 instead of -85.0 (only the int32 call retraces and sees the new value).
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
from jax import jit
import jax.numpy as jnp

# Global variables defined outside the function will be stored as static when JIT caches the computation
bias = 5.0
def fn(tuple_arr):
    return jnp.sum(tuple_arr ** 2 - tuple_arr ** 3 - tuple_arr)+bias
# JAX captures the value of the global during the first run
print ("First call: ", jit(fn)(jnp.ones(100)))
bias = bias + 10.0  # Update the global
# Subsequent runs may silently use the cached value of the globals
print ("Second call: ", jit(fn)(jnp.ones(100)))
# JAX re-runs the Python function when the type or shape of the argument changes
# This will end up reading the latest value of the global
print ("Third call, different type: ", jit(fn)(jnp.ones(100, dtype='int32')))
_report({"jit(fn)"}, 3)  # scaffolding
