# source: https://github.com/jax-ml/jax/issues/3391
# expect: trace-time-error at line 35
# runtime: ERROR TracerArrayConversionError
# why: jnp.reshape of the raw numpy constant onp.zeros([10]) still hands back a numpy ndarray, and indexing that ndarray with the traced x inside the jitted f calls __array__ on the tracer, raising TracerArrayConversionError.

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
import numpy as onp
import jax.numpy as jnp
from jax import jit
import numpy as np  # scaffolding: the report writes np.ones/np.int32 without importing np
@jit
def f(x):
  jnp.reshape(onp.zeros([10]), [2, 5])[:, x]
try:  # scaffolding
  f(np.ones((),np.int32))
  _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
