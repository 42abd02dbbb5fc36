# source: https://github.com/jax-ml/jax/issues/1077
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: on jax 0.10.2 the reporter's jitted f with lax.cond on a traced or default predicate runs: pred=True/False passed positionally share one traced compile, the default (omitted) pred compiles once more; no error.

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
from jax import jit, lax

@jit
def f(x, pred=False):
  return lax.cond(pred, x, lambda x: x**2, x, lambda x: x**3)

print(f(np.array([1,2,3]), True))  # DeviceArray([1, 4, 9], dtype=int32)
print(f(np.array([1,2,3]), False))  # DeviceArray([1, 8, 27], dtype=int32)
print(f(np.array([1,2,3])))
_report({"jit(f)"}, 3)  # scaffolding
