# source: https://github.com/Vodolay/NovaJax
# expect: trace-time-error at line 33
# runtime: ERROR TracerBoolConversionError
# why: absval branches with a Python if on x >= 0 and x is traced under jax.jit, so absval_jit(3.2) raises (the notebook leaves the call commented out: 'Uncomment to see the error message').
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
import jax
import jax.numpy as jnp

def absval(x):
    print(type(x))
    if x >= 0:
        return x
    else:
        return -x

absval_jit = jax.jit(absval)
# Uncomment to see the error message.
try:  # scaffolding
    absval_jit(3.2)  # scaffolding: uncommented
    _report({"jit(absval)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
