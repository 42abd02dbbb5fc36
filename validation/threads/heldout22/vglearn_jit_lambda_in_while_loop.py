# source: https://github.com/vgraman0/learning-jax/blob/44e733b19ed27becb60972f2147d89118af274e5/JAX/jit.ipynb
# expect: jit-in-loop-or-body at line 36
# runtime: COMPILES 20 CALLS 20
# why: each while-loop iteration jits a new lambda, so every iteration traces and compiles again.
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

def g_inner_jitted_lambda(x, n):
    i = 0
    while i < n:
        # each iteration, lambda returns a function with a different hash
        i = jax.jit(lambda x: unjitted_loop_body(x))(i)
    return x + i


print("jit called in a loop with lambdas:")
g_inner_jitted_lambda(10, 20).block_until_ready()  # scaffolding (was %timeit)
_report({"jit(<lambda>)"}, 20)  # scaffolding
