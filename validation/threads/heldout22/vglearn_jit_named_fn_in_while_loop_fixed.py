# source: https://github.com/vgraman0/learning-jax/blob/44e733b19ed27becb60972f2147d89118af274e5/JAX/jit.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: jax.jit of the same module-level function inside the loop hits jit's cache, as the notebook's 'with caching' variant says.
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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from functools import partial

def unjitted_loop_body(prev_i):
    return prev_i + 1

def g_inner_jitted_normal(x, n):
    i = 0
    while i < n:
        # hash for the compiled function is consistent
        i = jax.jit(unjitted_loop_body)(i)
    return x + i


print("jit called in a loop with caching:")
g_inner_jitted_normal(10, 20).block_until_ready()  # scaffolding (was %timeit)
_report({"jit(unjitted_loop_body)"}, 20)  # scaffolding
