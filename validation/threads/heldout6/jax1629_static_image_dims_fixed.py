# source: https://github.com/jax-ml/jax/issues/1629
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with m and n in static_argnums the reshape gets Python ints at trace time; the jitted gradient compiles once for 2 calls.

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
import jax  # scaffolding
import jax.numpy as np
from functools import partial  # scaffolding
from jax import jit, grad  # scaffolding


@partial(jit, static_argnums=(1, 2))  # scaffolding: m and n marked static
def jax_gradient_spatial_functional(x, m, n):  # scaffolding: Y, K_GT, lambda_, tau, h dropped
    def functional(X):
        r = X.shape[0]
        X_imshape = np.reshape(X, (r, m, n), order = 'F')
        return (X_imshape ** 2).sum()  # scaffolding: '....' in the issue
    return grad(functional)(x)  # scaffolding


x0 = np.ones((2, 6))  # scaffolding
m, n = 2, 3  # scaffolding
print(jax_gradient_spatial_functional(x0, m, n).shape)
print(jax_gradient_spatial_functional(x0 * 2, m, n).shape)  # scaffolding: a second step
_report({"jit(jax_gradient_spatial_functional)"}, 2)  # scaffolding
