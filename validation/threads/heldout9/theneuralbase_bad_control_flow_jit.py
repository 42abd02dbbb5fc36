# source: https://theneuralbase.com/jax/learn/beginner/tracer-errors-dynamic-control-flow/
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: bad_control_flow branches with a Python if on arr[0] > 5, a value of the traced argument, so jitting it raises TracerBoolConversionError.

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
from jax import lax


def bad_control_flow(arr):
    if arr[0] > 5:
        return arr * 2
    else:
        return arr + 1


try:  # scaffolding
    jax.jit(bad_control_flow)(jnp.array([6.0, 1.0, 2.0]))  # scaffolding
    _report({"jit(bad_control_flow)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
