# source: https://jax.readthedocs.io/en/latest/_autosummary/jax.numpy.nonzero.html
# expect: trace-time-error at line 33
# runtime: ERROR ConcretizationTypeError
# why: jnp.nonzero has a data-dependent output size, so jax.jit(jnp.nonzero)(x) without a static size raises ConcretizationTypeError.
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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

x = jnp.array([0, 5, 0, 6, 0, 7])
try:  # scaffolding
    jax.jit(jnp.nonzero)(x)
    _report({"jit(nonzero)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
