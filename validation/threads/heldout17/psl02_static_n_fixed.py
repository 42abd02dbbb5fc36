# source: https://predictivesciencelab.github.io/advanced-scientific-machine-learning/functional_programming/02_jit.html
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: with static_argnums=(1,) n is a Python int at trace time, so range(n) works; f_loop compiles once per distinct n (2 compiles for n=10 and n=11, as the lecture warns), which is jit's contract for static values, not an unneeded recompile.
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
import functools as ft

@ft.partial(jax.jit, static_argnums=(1,))
def f_loop(x, n):
    y = 0.
    for i in range(n):
        y = y + x
    return y

f_loop(2, 10)
f_loop(2, 11)
_report({"jit(f_loop)"}, 2)  # scaffolding
