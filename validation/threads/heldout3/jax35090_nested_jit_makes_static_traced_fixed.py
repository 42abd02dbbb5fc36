# source: https://github.com/jax-ml/jax/issues/35090
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with jit removed from add1, as the reporter found, add1(k) on the static k is a Python int at trace time, so jnp.arange gets a concrete length and my_arange compiles once.

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


import functools  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

def add1(i):
    return i+1

@functools.partial(jax.jit, static_argnums=(0,))
def my_arange(k):
    return jnp.arange(add1(k))

print(my_arange(5))  # scaffolding
_report({"jit(my_arange)"}, 1)  # scaffolding
