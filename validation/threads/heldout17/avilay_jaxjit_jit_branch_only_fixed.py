# source: https://github.com/avilay/learn-ai-act-1
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: only the branch g is jitted and f stays a Python function, so the if on the Python float n runs eagerly; g compiles once.
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

@jit
def g(x):
    return 3 * x**3 + 2 * x**2

# This is a pure Python function
def f(x, n):
    if n > 0:
        return g(x) + n
    else:
        return 2 * x - n

f(2., 5.)
_report({"jit(g)"}, 1)  # scaffolding
