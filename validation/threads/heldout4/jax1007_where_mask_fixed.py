# source: https://github.com/jax-ml/jax/issues/1007
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: mattjj's masking fix keeps k traced and sums np.where(arange(n) < k, a, 0), so shapes stay static and sum_first_k compiles once for two values of k.

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


# from __future__ import print_function  (scaffolding: commented out, it must open a file and is a no-op on Python 3)

import jax
import jax.numpy as np

@jax.jit
def sum_first_k(a, k):
  n = len(a)
  return np.sum(np.where(np.arange(n) < k, a, 0))

print(sum_first_k(np.arange(3.0), 2))
print(sum_first_k(np.arange(3.0), 1))  # scaffolding: a second k, same compiled code
_report({"jit(sum_first_k)"}, 2)  # scaffolding
