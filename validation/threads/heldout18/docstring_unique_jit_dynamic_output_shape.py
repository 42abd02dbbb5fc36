# source: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.unique.html
# expect: trace-time-error at line 34
# runtime: ERROR ConcretizationTypeError
# why: the output size of jnp.unique depends on the values of the traced x, so jax.jit(jnp.unique)(x) raises ConcretizationTypeError.
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

x = jnp.array([3, 4, 1, 3, 1])
jnp.unique(x)

try:  # scaffolding
    jax.jit(jnp.unique)(x)
    _report({"jit(unique)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
