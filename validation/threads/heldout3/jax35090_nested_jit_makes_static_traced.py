# source: https://github.com/jax-ml/jax/issues/35090
# expect: nested-jit at line 38
# runtime: ERROR ConcretizationTypeError
# why: add1 is itself jitted, so calling it inside the jitted my_arange returns a traced value even though k is static in both, and jnp.arange(add1(k)) raises ConcretizationTypeError (removing jit from add1 works).

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

@functools.partial(jax.jit, static_argnums=(0,))
def add1(i):
    return i+1

@functools.partial(jax.jit, static_argnums=(0,))
def my_arange(k):
    return jnp.arange(add1(k))

try:  # scaffolding
    my_arange(5)
    _report({"jit(my_arange)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
