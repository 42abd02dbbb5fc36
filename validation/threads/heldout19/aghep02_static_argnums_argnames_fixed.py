# source: https://github.com/aghilanai/jax-course/blob/main/ep02/solution.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: the notebook's fix: x static for f, n static by name for g; each of the three jitted calls compiles once (3 compiles, 3 calls, three separate jit objects).
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

def f(x):
    # tracer<int32, shape=(10)>, dtype, shape
    if x > 0:
        return x
    return 2 * x


def g(x, n):
    # tracer<int32, shape=(1)>, dtype, shape
    #tracer<int32, shape=(1)>, dtype, shape
    i = 0
    while i < n:
        i += 1
    return x + i


f_jit = jax.jit(f, static_argnums=0)
print("f_jit(10):", f_jit(10))

g_jit = jax.jit(g, static_argnames=["n"])
print("g_jit(10, 20):", g_jit(10, n=20))


def g(x, n):
    i = 0
    while i < n:
        i += 1
    return x + i



print("g_jit_decorated(10, 20):", jax.jit(g, static_argnames=["n"])(10, 20))
_report({"jit(f)", "jit(g)"}, 3)  # scaffolding
