# source: https://github.com/jax-ml/jax/issues/13796
# expect: trace-time-error at line 42
# runtime: ERROR IndexError
# why: lax.cond traces both branches, so the recursion through return_z -> rec never stops at len(x) > 1 and indexing x.at[0] on the empty slice raises while rec is traced (jakevdp: branch on the static len(x) with a Python if).

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

def return_x(x):
    return 0

def return_z(x):
    x = x.at[0].set(0)
    x = x.at[1:].set(rec(x[1:]))
    return x
    # return jnp.ones_like(x)

@jax.jit
def rec(x):
    return jax.lax.cond(len(x) > 1, return_z, lambda x: 0, x)
    # return cond(len(x) > 1, return_z, return_x, x)

try:  # scaffolding
    rec(jnp.arange(30))
    _report({"jit(rec)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
