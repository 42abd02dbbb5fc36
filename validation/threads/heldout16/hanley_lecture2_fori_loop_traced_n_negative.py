# source: http://doughanley.com/grad_code/lecture_2.html
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: lax.fori_loop accepts a traced upper bound n (it lowers to a while_loop), so jax.jit(fl_fori) needs no static argument and compiles once.
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

def fl_fori(x, n):
    fl_x = lambda i, v: x*v
    return lax.fori_loop(0, n, fl_x, 1.0)
jfl_fori = jax.jit(fl_fori)
jfl_fori(2.0, 3)
print(jfl_fori(2.0, 5))  # scaffolding
_report({"jit(fl_fori)"}, 2)  # scaffolding
