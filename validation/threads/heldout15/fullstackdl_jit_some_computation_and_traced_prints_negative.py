# source: https://github.com/ntrajic/Full_Stack_DL_NG_Python
# expect: none
# runtime: COMPILES 3 CALLS 12
# why: some_computation is jitted once (by call and by decorator) and some_function prints its tracers only while tracing; every function compiles once for its repeated same-shape calls.
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
import jax
import numpy as np
import jax.numpy as jnp

from jax import jit
from jax import lax


def some_computation(x):
    return x + 2 * x*x + 3 * x*x*x


x_np = np.random.normal(size = (500, 500)).astype(np.float32)  # scaffolding: 10000 cut to 500

for _ in range(5):  # scaffolding: %timeit -n5
    some_computation(x_np)

x_jax = jax.random.normal(jax.random.PRNGKey(0), (500, 500), dtype = jnp.float32)  # scaffolding: 10000 cut to 500

for _ in range(5):  # scaffolding: %timeit -n5
    some_computation(x_jax)

some_computation_jax = jit(some_computation)

for _ in range(5):  # scaffolding: %timeit -n5
    some_computation_jax(x_jax).block_until_ready()


@jit
def some_computation_jax_decorated(x):
    return x + 2 * x*x + 3 * x*x*x


for _ in range(5):  # scaffolding: %timeit -n5
    some_computation_jax_decorated(x_jax).block_until_ready()


@jit
def some_function(x, y):

  print('Running some_fn()')

  print(f'x = {x}')
  print(f'y = {y}')

  result = jnp.dot(x, y)

  print(f'result = {result}')

  return result


# Inputs shape both (10000, 10000)

some_function(x_jax, x_jax.T)
some_function(x_jax, x_jax.T)  # scaffolding: the call 'again on matching inputs' the notebook describes
_report({"jit(some_computation)", "jit(some_computation_jax_decorated)", "jit(some_function)"}, 12)  # scaffolding
