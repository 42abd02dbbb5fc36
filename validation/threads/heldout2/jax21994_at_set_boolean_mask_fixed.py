# source: https://github.com/jax-ml/jax/issues/21994
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the reporter's g, jnp.where(x < 5, 0, x), has a static output shape: jax.jit(g) compiles once and runs.

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
import jax.numpy as jnp

def g(x):
    return jnp.where(x < 5, 0, x)

x = jnp.arange(10)
print(jax.jit(g)(x))  # no error
_report({"jit(g)"}, 1)  # scaffolding
