# source: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.setdiff1d.html
# expect: trace-time-error at line 35
# runtime: ERROR ConcretizationTypeError
# why: the output size of jnp.setdiff1d depends on the traced values, so jax.jit(jnp.setdiff1d)(ar1, ar2) raises ConcretizationTypeError.
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

ar1 = jnp.array([1, 2, 3, 4])
ar2 = jnp.array([3, 4, 5, 6])
jnp.setdiff1d(ar1, ar2)

try:  # scaffolding
    jax.jit(jnp.setdiff1d)(ar1, ar2)
    _report({"jit(setdiff1d)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
