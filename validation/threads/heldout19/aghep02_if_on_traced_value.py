# source: https://github.com/aghilanai/jax-course/blob/main/ep02/solution.ipynb
# expect: trace-time-error at line 31
# runtime: ERROR TracerBoolConversionError
# why: f branches with a Python if on the traced x, so jax.jit(f)(jnp.array(10)) raises TracerBoolConversionError.
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

def f(x):
    # tracer<int32, shape=(10)>, dtype, shape
    if x > 0:
        return x
    return 2 * x


try:
    jax.jit(f)(jnp.array(10))
    _report({"jit(f)"}, 1)  # scaffolding
except jax.errors.TracerBoolConversionError as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding: the notebook prints a label here
