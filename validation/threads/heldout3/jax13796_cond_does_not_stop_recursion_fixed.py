# source: https://github.com/jax-ml/jax/issues/13796
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: jakevdp's fix branches on the static len(x) with a Python conditional, so the recursion stops at trace time and the jitted rec compiles once.

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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

def return_z(x):
    x = x.at[0].set(0)
    x = x.at[1:].set(rec(x[1:]))
    return x

@jax.jit
def rec(x):
    return return_z(x) if len(x) > 1 else 0

print(rec(jnp.arange(30)))  # scaffolding
_report({"jit(rec)"}, 1)  # scaffolding
