# source: https://github.com/vgraman0/learning-jax/blob/44e733b19ed27becb60972f2147d89118af274e5/JAX/jit.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: a module-level @jax.jit body called from a Python while loop is compiled once per input type and then reused.
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

@jax.jit
def loop_body(prev_i):
    return prev_i + 1

def g_inner_jitted(x, n):
    i = 0
    while i < n:
        i = loop_body(i)
    return x + i

g_inner_jitted(10, 20)
_report({"jit(loop_body)"}, 20)  # scaffolding
