# source: https://openillumi.com/en/en-jax-jit-static-argnums-array-fix
# expect: unhashable-static at line 41
# runtime: ERROR ValueError
# why: the training arrays x and y (numpy.ndarray) are marked static so they would be frozen into the compiled loss, but static arguments must be hashable and ndarrays are not: the call raises ValueError.

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


from functools import partial
import numpy as np
import jax
import jax.numpy as jnp

x = np.linspace(0.0, 1.0, 50)  # scaffolding
y = 2.0 * x + 1.0  # scaffolding

@partial(jax.jit, static_argnums=(1, 2))
def loss(r, x, y):
    return jnp.mean((y - (r[0] * x + r[1])) ** 2)  # scaffolding: MSE of a line fit

try:  # scaffolding
    loss(jnp.array([1.0, 0.0]), x, y)
    _report({"jit(loss)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
