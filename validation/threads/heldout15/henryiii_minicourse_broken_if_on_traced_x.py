# source: https://raw.githubusercontent.com/henryiii/python-performance-minicourse/master/06b_jax.ipynb
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: broken compares the traced x with 3 in a Python if, so broken(2) raises under @jax.jit (the course's 'You can't trace through flow control that depends on the tracers').
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
import numpy as np

@jax.jit
def broken(x):
 if x == 3:
  return x**3
 return x

try:  # scaffolding
    broken(2)
    _report({"jit(broken)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
