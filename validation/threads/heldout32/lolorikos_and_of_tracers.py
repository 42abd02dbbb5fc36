# source: https://github.com/lolorikos/sciml-jax/commit/2993cd3b342469ea8ea73186262bd750599d28da
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: Python's `and` calls bool() on the traced comparison x > 0 inside the jitted f, raising TracerBoolConversionError (the notebook shows the error).

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


@jax.jit
def f(x):
    return (x > 0) and (x < 3)  # This will fail! Runtime comparison in JIT.


try:  # scaffolding
    f(1.0)
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
