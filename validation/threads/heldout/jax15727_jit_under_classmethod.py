# source: https://github.com/jax-ml/jax/issues/15727
# expect: trace-time-error at line 40
# runtime: ERROR TypeError
# why: @jax.jit under @classmethod receives the class as its first (traced) argument, so jit cannot interpret the type object as an array and raises TypeError.

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
import jax.numpy as jnp
from functools import partial


class A:
    def __init__(self):
        pass

    @classmethod
    #@partial(jax.jit, static_argnums=0)  # this one does not work as well
    @jax.jit
    def zeros(shape):
        return jnp.zeros(shape)


try:  # scaffolding
    print(A.zeros((2, 3)))
    _report({"jit(zeros)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
