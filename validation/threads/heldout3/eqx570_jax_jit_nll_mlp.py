# source: https://github.com/patrick-kidger/equinox/issues/570
# expect: trace-time-error at line 48
# runtime: ERROR TypeError
# why: jax.jit(nll) receives the whole eqx.nn.MLP, whose activation (a custom_jvp function) is a non-array pytree leaf, so jit raises TypeError; the eager nll call before it works.

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
import numpy as np
import equinox as eqx
import jax


def example():
    key = jax.random.PRNGKey(seed=0)
    model = eqx.nn.MLP(2, 1, 4, 3, key=key)
    X = np.random.randn(100, 2).astype(np.float32)
    y = np.random.randn(100, 1).astype(np.float32)

    def nll(model, X, y):
        yp = jax.vmap(model)(X)
        mse = jnp.mean((y - yp) ** 2)
        return mse

    yp = jax.vmap(model)(X)

    loss = nll(model, X, y)
    loss = jax.jit(nll)(model, X, y)  # FAILS


try:  # scaffolding
    example()
    _report({"jit(nll)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
