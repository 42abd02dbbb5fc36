# source: https://github.com/aghilanai/jax-course/blob/main/ep02/solution.ipynb
# expect: jit-in-loop-or-body at line 36
# runtime: COMPILES 20 CALLS 20
# why: jax.jit of a fresh lambda inside the while loop: every iteration is a new function object, so each of the 20 calls compiles again (20 compiles, 20 calls).
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

def unjitted_loop_body(prev_i):
    return prev_i + 1


def g_inner_jitted_lambda(x, n):
    i = 0
    while i < n:
        i = jax.jit(lambda v: unjitted_loop_body(v))(i)
    return x + i


print("lambda (bad):")
jax.block_until_ready(g_inner_jitted_lambda(10, 20))  # scaffolding: was %timeit
_report({"jit(<lambda>)"}, 20)  # scaffolding
