# source: https://github.com/jax-ml/jax/issues/3007
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The same static argument passed positionally, as the reporter found works: one compile for two calls.
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
g(jnp.ones((1, 1)), 1) # No keyword args!  (scaffolding: leading axis 1 for one CPU device)
g(jnp.ones((1, 1)), 1)  # scaffolding: a second call
_report({"jit(_fun)"}, 2)  # scaffolding
