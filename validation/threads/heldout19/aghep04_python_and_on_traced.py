# source: https://github.com/aghilanai/jax-course/blob/main/ep04/solution.ipynb
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: Python 'and' short-circuits by calling bool() on the traced comparison, so g(2) raises TracerBoolConversionError under @jit.
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

from functools import partial

import jax
import jax.numpy as jnp
from jax import grad, jit, lax

@jit
def g(x):
    # Tracer<Int32> (.dtype, .shape)
    return (x > 0) and (x < 3)


try:
    g(2)
    _report({"jit(g)"}, 1)  # scaffolding
except jax.errors.TracerBoolConversionError as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding: the notebook prints the message
