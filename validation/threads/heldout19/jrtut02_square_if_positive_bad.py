# source: https://github.com/jrproal/jax_tutorial/blob/main/02_jit_and_autodiff.ipynb
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: square_if_positive_bad works eagerly, but jitted its Python if on the traced x raises TracerBoolConversionError.
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
import numpy as np
import time

# This will FAIL when JIT-compiled
def square_if_positive_bad(x):
    """Square the input if it's positive, otherwise return 0."""
    if x > 0:  # Data-dependent control flow!
        return x ** 2
    else:
        return 0.0

# Works fine without JIT
print("Without JIT:")
print(f"x=5: {square_if_positive_bad(5.0)}")
print(f"x=-1: {square_if_positive_bad(-1.0)}")

# But fails with JIT
print("With JIT:")
try:
    square_if_positive_bad_jit = jax.jit(square_if_positive_bad)
    result = square_if_positive_bad_jit(5.0)
    print(f"With JIT: {result}")
    _report({"jit(square_if_positive_bad)"}, 1)  # scaffolding
except Exception as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding: the notebook prints the name and message
