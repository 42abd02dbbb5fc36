# source: https://github.com/jaxleyverse/jaxley/pull/603
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The PR's fix uses jnp.sqrt and jnp.sum on the traced value (the NumPy constant array stays NumPy), so mytest traces and compiles once.

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
import numpy as np  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding


@jit
def mytest(param):
    return jnp.sqrt(jnp.sum(param * np.asarray([3.0, 4.0])))
mytest(jnp.ones((1,)))
mytest(jnp.ones((1,)))  # scaffolding
_report({"jit(mytest)"}, 2)  # scaffolding
