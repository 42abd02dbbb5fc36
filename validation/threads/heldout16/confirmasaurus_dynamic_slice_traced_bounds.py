# source: https://github.com/Confirm-Solutions/confirmasaurus/blob/main/docs/jax_patterns.md
# expect: trace-time-error at line 31
# runtime: ERROR IndexError
# why: under jit x[0] and x[1] are traced, and a slice with traced start/stop has a value-dependent size, so y[x[0]:x[1]] raises IndexError (the guide: 'the following is not jit-able').
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

def f(x, y):
    y = y[x[0]:x[1]]
    return y[0]

x = jnp.array([1, 3])  # scaffolding
y = jnp.arange(5.0)  # scaffolding
try:  # scaffolding
    jax.jit(f)(x, y)  # scaffolding
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
