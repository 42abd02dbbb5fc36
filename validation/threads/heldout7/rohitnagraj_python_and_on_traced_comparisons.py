# source: https://github.com/RohitNagraj/Learning-JAX
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: A learner's jitted g(x) combines two traced comparisons with Python `and`, which calls bool() on a tracer and raises TracerBoolConversionError.

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
from jax import jit, grad, vmap
import jax.numpy as jnp


@jit
def g(x):
  return (x > 0) and (x < 3)

# This will fail!
try:  # scaffolding
    g(2)
    _report({"jit(g)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
