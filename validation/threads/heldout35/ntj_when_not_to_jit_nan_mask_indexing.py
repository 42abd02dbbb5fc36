# source: https://github.com/IanQS/numpy_to_jax/blob/0301de5f7595223117312a36d88d79d3bc135502/solutions/extras_when_not_to_jit.ipynb
# expect: trace-time-error at line 38
# runtime: ERROR NonConcreteBooleanIndexError
# why: is_nan_filter indexes an array with a boolean mask of data-dependent size; under jax.jit this raises NonConcreteBooleanIndexError.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

to_filter = jnp.asarray([1, 2, 3, jnp.nan, 10, 20])

def is_nan_filter(to_filter_jnp):
    ########################################
    # Your code here
    ########################################
    return to_filter_jnp[to_filter_jnp != jnp.nan]

jitted_func = jax.jit(is_nan_filter)

print(is_nan_filter(to_filter))
try:
    print(jitted_func(to_filter))
    _report({"jit(is_nan_filter)"}, 1)  # scaffolding
except Exception as e:
    print(e)
    print(f"ERROR {type(e).__name__}")  # scaffolding
