# source: https://apxml.com/courses/getting-started-with-jax/chapter-2-accelerating-functions-jit/jit-static-vs-traced
# expect: trace-time-error at line 33
# runtime: ERROR TracerBoolConversionError
# why: conditional_double's Python if compares x with threshold; under a plain jax.jit both are traced, so the comparison is a traced bool and the if raises TracerBoolConversionError at trace time.

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
def conditional_double(x, threshold):
    # Python if statement depends on the value of x
    if x > threshold:
        return x * 2
    else:
        return x  # scaffolding

try:  # scaffolding
    jax.jit(conditional_double)(jnp.array(5.0), 3.0)
    _report({"jit(conditional_double)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
