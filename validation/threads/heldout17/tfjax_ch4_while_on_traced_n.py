# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/blob/main/src/notebooks/jax_tutorials/chapter_4_just_in_time_compilation.ipynb
# expect: trace-time-error at line 38
# runtime: ERROR TracerBoolConversionError
# why: jit(multiply_n_times) traces n, so the Python while count < n cannot be evaluated and raises.
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


import os
import time
# import requests  (unused, not installed: dropped)

import jax
import jax.numpy as jnp
from jax import jit, grad, random

def multiply_n_times(x, n):
    count = 0
    res = 1
    while count < n:
        res = res * x
        count +=1
    return x


try:
    val = jit(multiply_n_times)(2, 5)
    _report({"jit(multiply_n_times)"}, 1)  # scaffolding
except Exception as ex:
    print(type(ex).__name__, ex)
    print(f"ERROR {type(ex).__name__}")  # scaffolding
