# source: https://github.com/cctutum/JAX_experiments/blob/9934ac317799d0687111135302e370c55829b813/LinkedInLearning_Learning_Jax/02_JITandPureFunctions.ipynb
# expect: stale-closure at line 108; shape-churn at line 76
# runtime: COMPILES 6 CALLS 8
# why: after power = 10, jit(power_of)(2) hits the cache entry traced with power = 5 and returns 32 instead of 1024 (stale global); some_function, return_same_value, power_of and pure_function_with_internal_state also recompile for every new shape or dtype.
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




# cell 1
import jax
import numpy as np
import jax.numpy as jnp

from jax import jit
from jax import lax
# Don't fotget to set up the runtime type as "GPU"
# cell 2
def some_computation(x):
  return x + 2*x*x + 3*x*x*x
# cell 3
x_np = np.random.normal(size= (1_000, 1_000)).astype(np.float32)  # scaffolding: 10_000 -> 1_000 (CPU)
some_computation(x_np)  # scaffolding: %timeit -n5 cut, one call
# cell 4
x_jax = jax.random.normal(jax.random.PRNGKey(0), (1_000, 1_000), dtype=jnp.float32)  # scaffolding: 10_000 -> 1_000 (CPU)
some_computation(x_jax).block_until_ready()  # scaffolding: %timeit -n5 cut, one call
# cell 5
some_computation_jax = jit(some_computation)
some_computation_jax(x_jax).block_until_ready()  # scaffolding: %timeit -n5 cut, one call
# cell 6
some_computation_jax(x_jax).block_until_ready()  # scaffolding: %time cut
# cell 7
@jit
def some_computation_jit_decorated(x):
  return x + 2*x*x + 3*x*x*x
# cell 8
some_computation_jit_decorated(x_jax).block_until_ready()  # scaffolding: %timeit -n5 cut, one call
# cell 9
@jit
def some_function(x, y):
  print(f'x = {x}')
  print(f'y = {y}')
  result = jnp.dot(x, y)
  print(f'result = {result}')
  return result
# cell 10
# inputs shape both (10_000, 10_000)
# First JIT-run
some_function(x_jax, x_jax.T)
# cell 11
# Second JIT-run
# print statements are removed, because they are side-effects
some_function(x_jax, x_jax.T)
# cell 12
# Run the same JIT compiled function with different shape inputs
x_jax_100 = jax.random.normal(jax.random.PRNGKey(0), (100, 100), dtype=jnp.float32)
some_function(x_jax_100, x_jax_100.T)
# cell 13
# Another input with the same shape (but different name) is used as argument this time
y_jax_100 = jax.random.normal(jax.random.PRNGKey(1), (100, 100), dtype=jnp.float32)
some_function(x_jax_100, y_jax_100.T)
# cell 14
# JIT-compiler traces not only shape of input vectors, but also data types
# We are now using 'int32' arrays instead of 'float32' and the JIT-compiler will retrace the same function as for the first time
x_jax_100_int = jnp.eye(100, dtype=jnp.int32)
some_function(x_jax_100_int, x_jax_100_int.T)
# cell 15
# Impure functions and JIT: I/O streams
def return_same_value(x):
  print('Return input value at output')
  return x

jit(return_same_value)(2.)
# cell 16
jit(return_same_value)(6.)
# cell 17
jit(return_same_value)(6)
# cell 18
# Impure functions and JIT: Global state
power = 5

def power_of(x):
  return x**power
# cell 19
x_5 = jit(power_of)(2)
x_5
# cell 20
power = 10
x_10 = jit(power_of)(2)
x_10
print(f"power = {power}: jit(power_of)(2) = {x_10}, expected {2 ** power}, stale: {int(x_10) != 2 ** power}")  # scaffolding
# cell 21
# IMPORTANT! Here we change the input from int (2) to float (2.0), so forces JIT to recompile the same function
# power (global variable) was set to 10 recently. Since the function will be recompiled (re-JIT-ed), the correct value of 'power' will be used!
x_10 = jit(power_of)(2.0)
x_10
# cell 22
x_10 = jit(power_of)(jnp.array([2]))
x_10
# cell 23
# Impure functions and JIT: Iterators
# In Python, iterators are stateful objects
array_jax = jnp.arange(5)
array_jax
# cell 24
lax.fori_loop(0, 5, lambda i, x: x + array_jax[i], 0)
# cell 25
iterator = iter(range(5)) # iterator is a stateful object!

print(lax.fori_loop(0, 5, lambda i, x: x + next(iterator), 0)) # because of the iterator, lambda function is no longer a pure function
# cell 26
def pure_function_with_internal_state(array):
    print('fresh JIT-compilation!')
    array_list = [] # internal state
    for i in range(len(array)):
        array_list.append(array[i])
    return array_list
# cell 27
array = jnp.arange(5)
jit(pure_function_with_internal_state)(array)
# cell 28
array = jnp.arange(10)
jit(pure_function_with_internal_state)(array)
# (cells 29-36, a new section that re-imports jax, are the two other files of this notebook)  # scaffolding
_report({"jit(some_function)", "jit(power_of)"}, 8)  # scaffolding: some_function 4 calls (cells 10-14), power_of 4 calls (cells 19-22)
