# source: https://github.com/aghilanai/jax-course/blob/main/ep02/solution.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: jax.jit(unjitted_loop_body) is re-wrapped each iteration but wraps the same function, so the cache hits after the first traced int (20 calls).
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


def g_inner_jitted_normal(x, n):
    i = 0
    while i < n:
        i = jax.jit(unjitted_loop_body)(i)
    return x + i


print("same fn (ok):")
jax.block_until_ready(g_inner_jitted_normal(10, 20))  # scaffolding: was %timeit
_report({"jit(unjitted_loop_body)"}, 20)  # scaffolding
