# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/blob/main/src/notebooks/jax_tutorials/chapter_4_just_in_time_compilation.ipynb
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: square_or_cube branches with a Python if on x % 2 == 0 where x is traced, so jit cannot decide the branch and raises (ConcretizationTypeError in the notebook, TracerBoolConversionError on 0.10.2).
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

def square_or_cube(x):
    if x % 2 == 0:
        return x ** 2
    else:
        return x * x * x


# JIT transformation
square_or_cube_jit = jit(square_or_cube)

# Run the jitted version on some sample data
try:
    val = square_or_cube_jit(2)
    _report({"jit(square_or_cube)"}, 1)  # scaffolding
except Exception as ex:
    print(type(ex).__name__, ex)
    print(f"ERROR {type(ex).__name__}")  # scaffolding
