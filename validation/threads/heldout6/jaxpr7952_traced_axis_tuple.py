# source: https://github.com/jax-ml/jax/pull/7952
# expect: trace-time-error at line 35
# runtime: ERROR TracerIntegerConversionError
# why: the axis tuple is built from y, a traced argument of the jitted h, so the reduction needs a concrete axis and raises TracerIntegerConversionError (the PR, never merged, wanted a ConcretizationTypeError saying 'The axis argument must be known statically').

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


@jax.jit  # scaffolding
def h(x, y):  # scaffolding: stand-in for the PR's test function h
    return jnp.sum(x, axis=(y,))  # scaffolding


try:  # scaffolding
    print(h(jnp.ones((2, 3)), 1))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
