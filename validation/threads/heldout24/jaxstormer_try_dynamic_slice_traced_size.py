# source: https://github.com/TheUnsolvedDev/JaxStormer/blob/341a8e99cf1f841b2ba6108a8fc289719400f216/ReinforcementLearning/NewBeginning/try.py
# expect: trace-time-error at line 34
# runtime: ERROR TypeError
# why: under jit the slice length length_mask is a jnp array, i.e. a tracer, but lax.dynamic_slice needs static slice sizes (only the start may be traced), so tracing raises TypeError.
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


import jax
import jax.numpy as jnp

def example_func():
    arr = jnp.arange(10)
    length_mask = jnp.array(5)  # Pretend this is computed dynamically
    # Use dynamic_slice instead of regular slicing
    sliced_arr = jax.lax.dynamic_slice(arr, (0,), (length_mask,))
    return sliced_arr

try:  # scaffolding
    sliced = jax.jit(example_func)()
    print(sliced)
    _report({"jit(example_func)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
