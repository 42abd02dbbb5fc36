# source: https://jax.readthedocs.io/en/latest/notebooks/thinking_in_jax.html
# expect: trace-time-error at line 32
# runtime: ERROR TracerBoolConversionError
# why: neg is a traced argument, so the conditional expression -x if neg else x needs its boolean value and f(1, True) raises TracerBoolConversionError.
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


import jax.numpy as jnp  # scaffolding (earlier cell)
from jax import jit  # scaffolding (earlier cell)

@jit
def f(x, neg):
  return -x if neg else x

try:  # scaffolding
    f(1, True)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
