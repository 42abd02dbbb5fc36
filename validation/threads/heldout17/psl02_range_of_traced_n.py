# source: https://predictivesciencelab.github.io/advanced-scientific-machine-learning/functional_programming/02_jit.html
# expect: trace-time-error at line 33
# runtime: ERROR TracerIntegerConversionError
# why: n is a traced argument of the jitted f_loop, so range(n) needs a concrete int and raises (the lecture's 'This does not work').
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

@jax.jit
def f_loop(x, n):
    y = 0.
    for i in range(n):
        y = y + x
    return y

try:  # scaffolding
    f_loop(2, 10)
    _report({"jit(f_loop)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
