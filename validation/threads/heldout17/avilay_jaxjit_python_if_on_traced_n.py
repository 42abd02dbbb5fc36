# source: https://github.com/avilay/learn-ai-act-1
# expect: trace-time-error at line 33
# runtime: ERROR TracerBoolConversionError
# why: jit(f) traces n, so the Python if n > 0 cannot be decided and raises (the notebook printed ConcretizationTypeError; on 0.10.2 it is TracerBoolConversionError).
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
import numpy as np
import jax.numpy as jnp
from jax import random, jit, lax, vmap, pmap, grad, value_and_grad

def f(x, n):
    if n > 0:
        return 3 * x**3 + 2 * x**2 + n
    else:
        return 2 * x - n

try:
    jf = jit(f)(2., 5.)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as err:
    print(f"{type(err)}\n{err}")
    print(f"ERROR {type(err).__name__}")  # scaffolding
