# source: https://predictivesciencelab.github.io/advanced-scientific-machine-learning/functional_programming/02_jit.html
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with lax.fori_loop the bound n stays traced, so f_loop compiles once for n=15 and n=11 (2 calls).
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
from jax import lax

@jax.jit
def f_loop(x, n):
    return lax.fori_loop(0, n, lambda i, y: y + x, 0.)

f_loop(jnp.array(2), 15)
f_loop(jnp.array(2), 11)  # scaffolding
_report({"jit(f_loop)"}, 2)  # scaffolding
