# source: https://github.com/jax-ml/jax/issues/1076
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The same kernel written with a select (np.where), which vmap can batch.
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
    return np.where(np.abs(x) > lam, 0.0, np.exp(-beta*x**2))  # fixed: select instead of Python if

def kernel(xs):
    kernels = vmap(kernel_scalar)(xs)
    return kernels

n = 10
xs = onp.random.randn(n)
k = kernel(xs)
k = kernel(onp.random.randn(n))  # scaffolding: a second batch of the same size
_report({"jit(_where)"}, 2)  # scaffolding
