# source: https://github.com/CCA-Software-Group/short_tutorials/blob/main/docs/tutorials/python/jax/Intro-to-JAX.ipynb
# expect: trace-time-error at line 33
# runtime: ERROR TracerBoolConversionError
# why: func_if1 is @jax.jit and branches with a Python if on the traced x, so the call func_if1(10.0) raises TracerBoolConversionError while tracing.
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

@jax.jit
def func_if1(x):
    if x > 0:
        return x**3
    else:
        return x**2

try:  # scaffolding
    print(func_if1(10.0))  # scaffolding: print
    _report({"jit(func_if1)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
