# source: https://github.com/jax-ml/jax/issues/1629
# expect: trace-time-error at line 38
# runtime: ERROR TypeError
# why: m and n are arguments of the jitted gradient function, so they are traced and np.reshape(X, (r, m, n)) gets a traced shape: TypeError (the reporter's 'JaxprTracer object cannot be interpreted as an integer').

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
from jax import jit, grad  # scaffolding


@jit  # scaffolding: the reporter jitted the gradient function that receives m and n
def jax_gradient_spatial_functional(x, m, n):  # scaffolding: Y, K_GT, lambda_, tau, h dropped
    def functional(X):
        r = X.shape[0]
        X_imshape = np.reshape(X, (r, m, n), order = 'F')
        return (X_imshape ** 2).sum()  # scaffolding: '....' in the issue
    return grad(functional)(x)  # scaffolding


x0 = np.ones((2, 6))  # scaffolding
m, n = 2, 3  # scaffolding
try:  # scaffolding
    print(jax_gradient_spatial_functional(x0, m, n).shape)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
