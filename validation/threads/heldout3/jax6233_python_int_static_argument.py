# source: https://github.com/jax-ml/jax/issues/6233
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the reporter's working half: a Python int passed to the static argument of f_jit hashes fine, so f_jit compiles once for two calls with the same value.

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


import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding

def f(x):
    return jnp.arange(-x, x)
f_jit = jit(f, static_argnums=0)

x_int = int(5)
arange = f(x_int)
arange_jit = f_jit(x_int)
arange_jit = f_jit(x_int)  # scaffolding: a second call with the same value
_report({"jit(f)"}, 2)  # scaffolding
