# source: https://jax.readthedocs.io/en/latest/errors.html
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: the conditional expression x if x.sum() < y.sum() else y asks Python for the truth value of a traced comparison inside jit, which raises.
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
def func(x, y):
    return x if x.sum() < y.sum() else y


try:  # scaffolding
    func(jnp.ones(4), jnp.zeros(4))
    _report({"jit(func)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
