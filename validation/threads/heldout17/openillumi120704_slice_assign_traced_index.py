# source: https://openillumi.com/?p=120704
# expect: trace-time-error at line 35
# runtime: ERROR IndexError
# why: index is traced inside the jitted fun, so the slice x[:index] cannot have a static stop and raises IndexError before the (also invalid) in-place assignment is reached.
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

def other_fun(x):  # scaffolding (the article's fix defines it so)
    return x + 1  # scaffolding

@jax.jit
def fun(x, index):
    x[:index] = other_fun(x[:index])
    return x

try:  # scaffolding
    fun(jnp.arange(5.), 3)  # scaffolding
    _report({"jit(fun)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
