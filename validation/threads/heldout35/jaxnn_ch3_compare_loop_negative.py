# source: https://github.com/0riv3r/jaxnn/blob/5f4640fa4fb3355d151a598e4c7ce4b5175c01a0/book%20-%20Mastering%20Jax%20Programming/ch3.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 201
# why: Cells 3-5: a decorated @jax.jit function passed into a timing helper and called in a Python loop with same-shape int matrices compiles once.

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


# --- end harness ---
"""
Matrix Multiplication using XLA
"""
import jax.numpy as jnp
import jax

def mathmul(A, B):
  return (A @ B)

@jax.jit
def mathmul_jit(A, B): 
  return (A @ B)

A = jnp.array([[1, 2], [3, 4]])
B = jnp.array([[5, 6], [7, 8]])

# Unoptimized matrix multiplication
C = mathmul(A, B)
print(f"Unoptimized matrix multiplication: {C}")

# XLA optimized matrix multiplication
D = mathmul_jit(A, B)
print(f"XLA optimized matrix multiplication: {D}")

"""
Timing and comparing functions
"""

from time import perf_counter

def compare(func, n, A, M):

  def time_func(func, n, A, M):
    for i in range(n):
      M = func(A, M)
      #print(f"M: {M}")
    return(func)

  t1_start = perf_counter()
  used_func = time_func(func, n, A, B)
  print(f"used_func: {used_func}")
  # Stop the stopwatch / counter
  t1_stop = perf_counter()

  return (t1_stop-t1_start)

A = jnp.array([[1, 2], [3, 4]])
B = jnp.array([[5, 6], [7, 8]])
n = 200  # scaffolding: was 1000000

unoptimized_function_time = compare(mathmul, n, A, B)
optimized_function_time = compare(mathmul_jit, n, A, B)

print(f"unoptimized_function_time: {unoptimized_function_time} ")
print(f"optimized_function_time: {optimized_function_time} ")

print(f"Optimization value: {unoptimized_function_time - optimized_function_time}")
_report({"jit(mathmul_jit)"}, 1 + n)  # scaffolding
