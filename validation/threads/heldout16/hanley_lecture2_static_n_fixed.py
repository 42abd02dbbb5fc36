# source: http://doughanley.com/grad_code/lecture_2.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with static_argnums=1 the loop bound n is a Python int at trace time, so the loop unrolls and jfl compiles once (the lecture: 'will recompile for each distinct value of n').
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
import jax.numpy as np
import jax.lax as lax

# very slow way to compute x**n
def fl(x, n):
    out = 1
    for i in range(n):
        out = x*out
    return out

jfl = jax.jit(fl, static_argnums=1)
jfl(2.0, 3)
_report({"jit(fl)"}, 1)  # scaffolding
