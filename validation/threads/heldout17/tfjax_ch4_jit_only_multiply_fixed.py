# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/blob/main/src/notebooks/jax_tutorials/chapter_4_just_in_time_compilation.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: only multiply is jitted (x static) and the while loop stays in Python, so the 5 calls of multiply_jit inside the loop reuse one compile.
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

# Jitting the expensive computational part
def multiply(x, i):
    return x * i

# Specifying the static args
multiply_jit = jit(multiply, static_argnums=0)

# Leaving it as it as
def multiply_n_times(x, n):
    count = 0
    res = 1
    while count < n:
        res = multiply_jit(x, res)
        count += 1
    return res


print(multiply_n_times(2, 5))  # scaffolding (notebook: %timeit multiply_n_times(2, 5))
_report({"jit(multiply)"}, 5)  # scaffolding
