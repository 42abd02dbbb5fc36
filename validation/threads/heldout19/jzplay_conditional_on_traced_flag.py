# source: https://github.com/JoeZiminski/jax_playing/blob/main/thinking-in-jax/static_vs_traced_operations.py
# expect: trace-time-error at line 33
# runtime: ERROR TracerBoolConversionError
# why: the jitted f uses the traced bool neg in a Python conditional expression, so f(1, True) raises TracerBoolConversionError (a ConcretizationTypeError subclass, which the notes catch).
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

import numpy as np
from jax import jit, make_jaxpr
from jax.errors import ConcretizationTypeError
import jax.numpy as jnp

@jit
def f(x, neg):
    return -x if neg else x

try:
    f(1, True)
    _report({"jit(f)"}, 1)  # scaffolding
except ConcretizationTypeError as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding: the notes print the message
