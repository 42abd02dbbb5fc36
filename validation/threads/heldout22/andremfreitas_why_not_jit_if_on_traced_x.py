# source: https://github.com/andremfreitas/ml/blob/a5ab8566d4646546f87b398883ba7be3c28f8b12/jax/jit/why_not_jit_everything.py
# expect: trace-time-error at line 31
# runtime: ERROR TracerBoolConversionError
# why: the Python if on x inside the jitted f needs a concrete bool, so f_jit(10) raises TracerBoolConversionError (the script's comment says it should raise).
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
import jax 
import jax.numpy as jnp

# Condition on value of x.

def f(x):
  if x > 0:
    return x
  else:
    return 2 * x

f_jit = jax.jit(f)
try:  # scaffolding
    f_jit(10)  # Should raise an error. 
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
