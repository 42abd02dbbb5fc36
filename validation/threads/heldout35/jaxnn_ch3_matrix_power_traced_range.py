# source: https://github.com/0riv3r/jaxnn/blob/5f4640fa4fb3355d151a598e4c7ce4b5175c01a0/book%20-%20Mastering%20Jax%20Programming/ch3.ipynb
# expect: trace-time-error at line 40
# runtime: ERROR TracerIntegerConversionError
# why: The version the learner's docstring reports failing: range(power) on the traced jit argument needs a concrete int and raises TracerIntegerConversionError.

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

# The version the notebook's docstring reports failing ("If I do the following: ... I get the error"):
@jax.jit
def matrix_power_jit(matrix, power):
  result = jnp.eye(matrix.shape[0])
  for _ in range(power):
    result = result @ matrix
  return result

try:  # scaffolding
    power_result_optimized = matrix_power_jit(matrix, 10)
    _report({"jit(matrix_power_jit)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
