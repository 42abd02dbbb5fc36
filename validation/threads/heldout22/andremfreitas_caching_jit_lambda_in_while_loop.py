# source: https://github.com/andremfreitas/ml/blob/68904af31cb997984b55b50ac4ce52e02b477f10/jax/jit/caching.py
# expect: jit-in-loop-or-body at line 41
# runtime: COMPILES 40 CALLS 40
# why: every while-loop iteration jits a new lambda, so each of the 40 calls traces and compiles again.
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
from functools import partial
import timeit

from functools import partial

def unjitted_loop_body(prev_i):
  return prev_i + 1

# This function uses lambda, which also creates new function objects, affecting caching.
def g_inner_jitted_lambda(x, n):
  i = 0
  while i < n:
    # Don't do this!, lambda will also return
    # a function with a different hash
    i = jax.jit(lambda x: unjitted_loop_body(x))(i)
  return x + i

# Function to measure the execution time using timeit
def measure_time(func):
    return timeit.timeit(lambda: func(10, 20).block_until_ready(), number=2)  # scaffolding: number=2 (was 100)

print("jit called in a loop with lambdas:")
time_taken_lambda = measure_time(g_inner_jitted_lambda)
print(f"Time taken: {time_taken_lambda} seconds")
_report({"jit(<lambda>)"}, 40)  # scaffolding
