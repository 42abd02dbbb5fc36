# source: https://github.com/jax-ml/jax/issues/1007
# expect: trace-time-error at line 34
# runtime: ERROR TypeError
# why: k is a traced argument of the jitted sum_first_k, and lax.dynamic_slice needs concrete slice sizes, so (k,) raises TypeError (mattjj: every intermediate shape must be fixed under jit).

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
import jax.numpy as np
from jax import lax  # scaffolding: the snippet uses lax without importing it

@jax.jit
def sum_first_k(a, k):
  return np.sum(lax.dynamic_slice(a, (0,), (k,)))

try:  # scaffolding
    sum_first_k(np.arange(3.0), 2)
    _report({"jit(sum_first_k)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
