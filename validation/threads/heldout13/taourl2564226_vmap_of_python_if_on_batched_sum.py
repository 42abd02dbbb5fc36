# source: https://taourl.com/read-2564226.html
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: The answer says vmap of a function with a Python if still works, but under vmap x.sum() is a batched tracer and the if raises TracerBoolConversionError.

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
import jax
import jax.numpy as jnp


def non_jittable_func(x):
    # A non-jittable function due to Python control flow
    if x.sum() > 0:  # scaffolding: the stored page lost the call parentheses ("x.sum > 0")
        return x * 2  # scaffolding: the stored page lost the operator ("x 2")
    else:
        return x + 1


# Apply vmap without JIT
batched_func = jax.vmap(non_jittable_func)
inputs = jnp.array([[1, 2], [-1, -2]])
try:  # scaffolding
    result = batched_func(inputs)
    print(result)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
