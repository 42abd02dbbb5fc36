# source: https://mint.westdri.ca/ai/jx_jit
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: x is a traced argument of the jitted cond_func, so the Python if x < 0.0 needs a concrete bool and raises TracerBoolConversionError, as the course page shows.

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
import jax.numpy as jnp
from jax import jit


@jit
def cond_func(x):
    if x < 0.0:
        return x ** 2.0
    else:
        return x ** 3.0

try:  # scaffolding
    print(cond_func(1.0))
    _report({"jit(cond_func)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
