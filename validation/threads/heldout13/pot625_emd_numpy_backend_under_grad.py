# source: https://github.com/PythonOT/POT/issues/625
# expect: trace-time-error at line 59
# runtime: ERROR TracerArrayConversionError
# why: ot.emd hands its inputs to a C solver through the backend's to_numpy, so differentiating (or jitting) a loss that calls it on JAX arrays converts a tracer to a NumPy array and raises.

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
import types  # scaffolding

import jax.numpy as jnp
import numpy as np
from jax import random, grad


# scaffolding: POT is not installed; emd below mimics ot.lp.emd, which converts its inputs with
# the backend's to_numpy before calling the network-simplex C solver and converts the plan back.
def _emd(a, b, M):
    a0, b0, M0 = a, b, M
    M, a, b = np.asarray(M0, dtype=np.float64), np.asarray(a0, dtype=np.float64), np.asarray(b0, dtype=np.float64)
    G = np.outer(a, b)  # stands in for emd_c(a, b, M, numItermax, numThreads)
    return jnp.asarray(G)


pot = types.SimpleNamespace(emd=_emd)

key = random.PRNGKey(0)
B = 10

key, subkey = random.split(key)
x = random.normal(subkey, (B, 1))
key, subkey = random.split(key)
y = random.normal(subkey, (B, 1))


def loss_fn(x, y):
    costs = jnp.linalg.norm(x[:, None] - y[None, :], axis=-1)**2

    pi = pot.emd(
        jnp.ones(B) / B,
        jnp.ones(B) / B,
        costs)

    return jnp.sum(pi * costs)

try:  # scaffolding
    g = grad(loss_fn)(x, y)
    print(g)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
