# source: https://github.com/jax-ml/jax/issues/3007
# expect: bad-static-spec at line 37
# runtime: ERROR ValueError
# why: An argument declared in static_broadcasted_argnums is passed by keyword, which pmap rejects.
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
import jax.numpy as jnp  # scaffolding

def f(a, b):
  return a + b

g = jax.pmap(f, static_broadcasted_argnums=(1,))
try:  # scaffolding
    g(jnp.ones((1, 1)), b=1)  # scaffolding: leading axis 1 (one CPU device), the thread used 8
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
