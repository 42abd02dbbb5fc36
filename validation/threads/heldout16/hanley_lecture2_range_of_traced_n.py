# source: http://doughanley.com/grad_code/lecture_2.html
# expect: trace-time-error at line 34
# runtime: ERROR TracerIntegerConversionError
# why: n is a traced argument of jax.jit(fl), so range(n) needs a Python int from a tracer and raises TracerIntegerConversionError (the lecture prints the error: 'we tried to use a function argument as the loop bounds and then jit it').
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

# very slow way to compute x**n
def fl(x, n):
    out = 1
    for i in range(n):
        out = x*out
    return out

try:
    jfl = jax.jit(fl)
    jfl(2.0, 3)
    _report({"jit(fl)"}, 1)  # scaffolding
except Exception as e:
    print(e)
    print(f"ERROR {type(e).__name__}")  # scaffolding
