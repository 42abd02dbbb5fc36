# source: https://github.com/0riv3r/jaxnn/blob/5f4640fa4fb3355d151a598e4c7ce4b5175c01a0/book%20-%20Mastering%20Jax%20Programming/ch3.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: Cell 14's fix: jax.jit(matrix_power, static_argnames=('_power',)) unrolls the loop for power=1100 once; the second call hits the cache.

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
import jax.numpy as jnp
from time import perf_counter

matrix = jnp.array([[2,3], [1,4]])
power = 1100

# Calculate matrix power
def matrix_power(_matrix, _power):
  result = jnp.eye(_matrix.shape[0])
  for _ in range(_power):
    result = result @ _matrix
  return result

# Unoptimized matrix power
t1_start = perf_counter()
power_result_unoptimized = matrix_power(matrix, 50)  # scaffolding: 50 eager steps instead of `power`, for time
t1_stop = perf_counter()

print(f"power_result_unoptimized: {power_result_unoptimized}")

matrix_power_jit = jax.jit(matrix_power, static_argnames=('_power',)) # static_argnames=('_power',) means that the '_power' argument is static.
                                                                      #                 (the name is the target's function arg name).
                                                                      # trace- and compile-time constant.
                                                                      # https://jax.readthedocs.io/en/latest/_autosummary/jax.jit.html
# Call the jit function
t2_start = perf_counter()
power_result_optimized = matrix_power_jit(matrix, power)
t2_stop = perf_counter()

print(f"power_result_optimized: {power_result_optimized}")

print(f"Unoptimized matrix power time: {t1_stop - t1_start}")
print(f"Optimized matrix power time: {t2_stop - t2_start}")

# Call the jit function second time
t3_start = perf_counter()
power_result_optimized_2 = matrix_power_jit(matrix, power)
t3_stop = perf_counter()

print(f"power_result_optimized_2: {power_result_optimized_2}")
print(f"Optimized matrix power time: {t3_stop - t3_start}")
_report({"jit(matrix_power)"}, 2)  # scaffolding
