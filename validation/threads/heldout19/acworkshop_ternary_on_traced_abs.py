# source: https://github.com/AdrienCorenflos/jax-workshop/blob/master/notebooks/controlflow/if-else.ipynb
# expect: trace-time-error at line 31
# runtime: ERROR TracerBoolConversionError
# why: my_abs uses a Python conditional expression on x; eagerly it works, but jit(my_abs)(-5.0) raises TracerBoolConversionError.
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

from jax import jit
from jax.lax import cond
import jax.numpy as jnp

def my_abs(x):
    return x if x > 0 else -x

print(my_abs(jnp.asarray(-5.0)))  # scaffolding: print added

try:  # scaffolding
    jit(my_abs)(-5.0)
    _report({"jit(my_abs)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
