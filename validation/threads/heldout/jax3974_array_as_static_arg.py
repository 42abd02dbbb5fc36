# source: https://github.com/jax-ml/jax/issues/3974
# expect: unhashable-static at line 39
# runtime: ERROR ValueError
# why: the second call passes a jax array for the static n; arrays are unhashable, so jit raises ValueError (non-hashable static argument); the Python int call before it is fine.

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


# --- end harness ---
import jax
import jax.numpy as np

def foo(n):
    if n > 1:
        return np.ones(1)
    return np.zeros(1)

jax.jit(foo, static_argnums=(0,))(1)
try:  # scaffolding
    jax.jit(foo, static_argnums=(0,))(np.ones(1))
    _report({"jit(foo)"}, 2)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
