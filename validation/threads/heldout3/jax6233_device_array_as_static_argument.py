# source: https://github.com/jax-ml/jax/issues/6233
# expect: unhashable-static at line 42
# runtime: ERROR ValueError
# why: x_device_array = jnp.add(4, 1) is a jax array, and f_jit marks argument 0 static, so hashing it for the cache raises ValueError (non-hashable static argument); the Python int 5 works.

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

x_device_array = jnp.add(4, 1)
arange = f(x_device_array)
try:  # scaffolding
    arange_jit = f_jit(x_device_array)
    _report({"jit(f)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
