# source: https://github.com/jax-ml/jax/issues/1007
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: mattjj's first fix marks k static (static_argnums=(1,)), so the slice size is a Python int and sum_first_k compiles once for its call.

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
from functools import partial

import jax
import jax.numpy as np

@partial(jax.jit, static_argnums=(1,))
def sum_first_k(a, k):
  return np.sum(jax.lax.dynamic_slice(a, (0,), (k,)))

print(sum_first_k(np.arange(3.0), 2))
_report({"jit(sum_first_k)"}, 1)  # scaffolding
