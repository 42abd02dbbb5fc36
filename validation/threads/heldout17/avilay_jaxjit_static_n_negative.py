# source: https://github.com/avilay/learn-ai-act-1
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: n is declared static, so the Python if works; f3 compiles once per distinct n (n=5 twice, then n=4: 2 compiles for 3 calls), as the notebook shows with its trace-time prints.
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
from functools import partial

@partial(jit, static_argnames=["n"])
def f3(x, n):
    print(f"x={x} n={n}")
    if n > 0:
        return 3 * x**3 + 2 * x**2 + n
    else:
        return 2 * x - n

f3(2., 5.)
f3(3., 5.)
f3(2., 4.)
_report({"jit(f3)"}, 3)  # scaffolding
