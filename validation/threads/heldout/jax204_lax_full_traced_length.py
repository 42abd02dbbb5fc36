# source: https://github.com/jax-ml/jax/issues/204
# expect: trace-time-error at line 35
# runtime: ERROR TypeError
# why: pad_to_length is a traced argument of the jitted function, so lax.full((pad_to_length, width), ...) gets a traced shape and raises TypeError.

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
from jax import jit, lax
import jax.numpy as np  # scaffolding
import numpy as onp  # scaffolding

def dynamic_update_slice_test(first_row, pad_to_length):
  width = first_row.shape[0]
  empty_array = lax.full((pad_to_length,width), 0, first_row.dtype)
  first_row_reshaped = np.reshape(first_row, (1,width))
  print(empty_array.shape)
  return lax.dynamic_update_slice(empty_array, first_row_reshaped, start_indices=[0])

dynamic_update_slice_test_jit = jit(dynamic_update_slice_test)
try:  # scaffolding
    dynamic_update_slice_test_jit(onp.array([1,2]),4)
    _report({"jit(dynamic_update_slice_test)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
