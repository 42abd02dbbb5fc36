# source: https://apxml.com/courses/getting-started-with-jax/chapter-2-accelerating-functions-jit/jit-common-pitfalls
# expect: trace-time-error at line 32
# runtime: ERROR TracerBoolConversionError
# why: condition_on_value tests the traced x with a Python if, so jax.jit(condition_on_value) cannot turn x > 0 into a concrete bool and raises TracerBoolConversionError while tracing.

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
def condition_on_value(x):
    if x > 0: # Python 'if' checks the concrete value
        return x * 2
    else:
        return x / 2
jitted_condition = jax.jit(condition_on_value)
# This will likely raise an error during tracing
try:
    print(jitted_condition(jnp.array(5.0)))
except Exception as e:
    print(f"Error: {e}")
try:  # scaffolding
    jitted_condition(jnp.array(5.0))
    _report({"jit(condition_on_value)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
