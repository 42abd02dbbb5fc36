# source: https://github.com/jax-ml/jax/issues/15727
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the fix from the thread: cls and shape are both static (static_argnums=(0, 1)), so zeros compiles once.

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
    @partial(jax.jit, static_argnums=(0,1))
    def zeros(cls, shape):
        return jnp.zeros(shape)


print(A.zeros((2, 3)))
_report({"jit(zeros)"}, 1)
