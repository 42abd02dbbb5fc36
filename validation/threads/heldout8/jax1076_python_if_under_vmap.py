# source: https://github.com/jax-ml/jax/issues/1076
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: A Python if on a value that vmap has batched (a tracer) cannot be decided while tracing.
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

import numpy as onp  # scaffolding
import jax.numpy as np  # scaffolding
from jax import vmap  # scaffolding


def kernel_scalar(x, lam=0.18, beta=1.0):
    if np.abs(x) > lam:
        return 0.0
    else:
        return np.exp(-beta*x**2)

def kernel(xs):
    kernels = vmap(kernel_scalar)(xs)
    return kernels

n = 10
xs = onp.random.randn(n)
try:  # scaffolding
    k = kernel(xs)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
