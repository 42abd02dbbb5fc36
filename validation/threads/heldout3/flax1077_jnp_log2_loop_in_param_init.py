# source: https://github.com/google/flax/issues/1077
# expect: trace-time-error at line 36
# runtime: ERROR ConcretizationTypeError
# why: the initializer computes its loop count with jnp.log2 and loops over jnp.arange(lg2); model.apply re-runs the initializer under flax's traced shape check, where lg2 is a tracer, so jnp.arange raises ConcretizationTypeError (init itself works).

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


import jax.numpy as jnp
from jax import random
import flax.linen as nn


def hadamard(key, shape, dtype=jnp.float32):
    lg2 = jnp.log2(shape[0])
    H = jnp.ones((1, ), dtype=dtype)
    for i in jnp.arange(lg2):
        H = jnp.vstack([jnp.hstack([H, H]), jnp.hstack([H, -H])])
    H = 2**(-lg2 / 2) * H
    return H


class HadamardTransform(nn.Module):
    n_hadamard: int

    @nn.compact
    def __call__(self, X):
        kernel = self.param("kernel", hadamard, (self.n_hadamard, ))
        z = jnp.dot(X, kernel)
        return z


# fake test data
key = random.PRNGKey(42)
X = random.normal(key, (1, 16))  # scaffolding: 4096 in the thread

# Instantiating model
model = HadamardTransform(16)  # scaffolding: 4096 in the thread
params = model.init(key, X)

try:  # scaffolding
    model.apply(params, X)
    _report(set(), 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
