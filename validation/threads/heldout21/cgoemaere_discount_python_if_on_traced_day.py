# source: https://github.com/cgoemaere/jax-intro/blob/main/jax_intro.ipynb
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: the conditional expression compares the traced day_num with 3 inside jit, so jit(discount_bad)(1, 25.0) raises TracerBoolConversionError (the notebook catches and prints it).
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
import jax  # scaffolding: the notebook's import cell (cell 3)
import jax.numpy as jnp  # scaffolding
import jax.random as jrand  # scaffolding
from jax import grad, jit, vmap, lax  # scaffolding
import numpy as np  # scaffolding
import time  # scaffolding

# Cheap coffee on Wednesdays!
def discount_bad(day_num, price):
    return price * 0.2 if day_num == 3 else 0

# This fails with JIT - conditional depends on runtime value
_err = None  # scaffolding
try:
  jit(discount_bad)(1, 25.0)
except jax.errors.TracerBoolConversionError as e:
  _err = type(e).__name__  # scaffolding
  print("BIG ERROR: DON'T USE IF IN JIT")
  print(e)
print(f"ERROR {_err}") if _err else _report({"jit(discount_bad)"}, 1)  # scaffolding
