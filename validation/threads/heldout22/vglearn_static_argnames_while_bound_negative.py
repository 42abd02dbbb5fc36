# source: https://github.com/vgraman0/learning-jax/blob/44e733b19ed27becb60972f2147d89118af274e5/JAX/jit.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: n is declared static, so the Python while loop on n runs at trace time and the call compiles once.
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

@jax.jit(static_argnames=['n'])
def g_with_static(x, n):
    i=0
    while i < n:
        i = i + 1
    return x + i

g_with_static(10, 20)
_report({"jit(g_with_static)"}, 1)  # scaffolding
