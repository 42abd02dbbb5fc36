# source: https://github.com/andremfreitas/ml/blob/68904af31cb997984b55b50ac4ce52e02b477f10/jax/jit/caching.py
# expect: none
# runtime: COMPILES 1 CALLS 40
# why: jax.jit of the same module-level function inside the loop hits jit's cache, so 40 calls compile once.
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

# This function directly uses jax.jit(unjitted_loop_body), allowing JAX to find and use the cached, compiled function.
def g_inner_jitted_normal(x, n):
  i = 0
  while i < n:
    # this is OK, since JAX can find the
    # cached, compiled function
    i = jax.jit(unjitted_loop_body)(i)
  return x + i

# Function to measure the execution time using timeit
def measure_time(func):
    return timeit.timeit(lambda: func(10, 20).block_until_ready(), number=2)  # scaffolding: number=2 (was 100)

print("jit called in a loop with caching:")
time_taken_normal = measure_time(g_inner_jitted_normal)
print(f"Time taken: {time_taken_normal} seconds")
_report({"jit(unjitted_loop_body)"}, 40)  # scaffolding
