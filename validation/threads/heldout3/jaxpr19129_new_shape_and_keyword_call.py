# source: https://github.com/jax-ml/jax/pull/19129
# expect: shape-churn at line 41
# runtime: COMPILES 3 CALLS 3
# why: the jitted f is called with y['hi'] of shape (3,) then (4,), and then with y passed by keyword: each call is a new cache key, so f compiles 3 times for 3 calls.

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


import numpy as np  # scaffolding
# yash22.py
import jax
import jax.numpy as jnp

@jax.jit
def f(x, y):
  return jnp.sin(x) + y['hi']

print('=== EXAMPLE 0: new function ===')
f(1, {'hi': np.arange(3)})

print('=== EXAMPLE 1: new shape ===')
f(1, {'hi': np.arange(4)})

print('=== EXAMPLE 2: new kwargs signature ===')
f(1, y={'hi': np.arange(4)})
_report({"jit(f)"}, 3)  # scaffolding
