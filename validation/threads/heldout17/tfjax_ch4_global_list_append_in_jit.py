# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/blob/main/src/notebooks/jax_tutorials/chapter_4_just_in_time_compilation.ipynb
# expect: stale-closure at line 41
# runtime: COMPILES 1 CALLS 3
# why: the jitted number_squared appends to the global squared_numbers; the append runs only while tracing, so after make_jaxpr and three calls the list holds one JitTracer and none of the squared values (1 compile for 3 calls).
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

squared_numbers = []

# An impure function (using a global state)
def number_squared(num):
    global squared_numbers
    squared = num ** 2
    squared_numbers.append(squared)
    return squared

# Compiled verison
number_squared_jit = jit(number_squared)

# Make jaxpr
print(jax.make_jaxpr(number_squared_jit)(2))

# Subsequent calls to the jitted function
for i, num in enumerate([4, 8, 16]):
    print("Iteration: ", i+1)
    print("Result: ", number_squared_jit(num))
    print("="*50)

# What's in the list?
print("\n Results in the global list")
print(squared_numbers)  # scaffolding: print
_report({"jit(number_squared)"}, 3)  # scaffolding
