# source: https://github.com/jax-ml/jax/issues/4585
# expect: trace-time-error at line 33
# runtime: ERROR ConcretizationTypeError
# why: the one-argument jnp.where(a > 1) is nonzero in disguise: its output shape depends on the values of the traced a, so under jit it raises ConcretizationTypeError.

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
from jax import jit
import jax.numpy as jnp

try:  # scaffolding
    jit(lambda a: jnp.where(a>1))(jnp.arange(3))
    print("COMPILES 1 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
