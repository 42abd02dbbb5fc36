# source: https://jax.readthedocs.io/en/latest/errors.html
# expect: trace-time-error at line 34
# runtime: ERROR ConcretizationTypeError
# why: jnp.where(x > 1) with one argument is nonzero, whose output size depends on the values of a traced x, so it raises under jit.
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


@jit
def func(x):
    indices = jnp.where(x > 1)
    return x[indices].sum()


try:  # scaffolding
    func(jnp.arange(4))
    _report({"jit(func)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
