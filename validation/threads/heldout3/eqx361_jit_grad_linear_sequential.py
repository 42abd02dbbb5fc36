# source: https://github.com/patrick-kidger/equinox/issues/361
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: the reporter's working half: Linear and Sequential models are pytrees of arrays only, so the jax.jit-ed grad works for both (one compile per model structure, two for two calls).

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


import jax
import jax.nn as jnn
import jax.numpy as jnp
import jax.random as jrandom
from jaxtyping import Array, Float, Int, PyTree  # https://github.com/google/jaxtyping

import equinox as eqx

@jax.jit
@jax.grad
def loss_fn(model, x, y):
    pred_y = jax.vmap(model)(x)
    return jax.numpy.mean((y - pred_y) ** 2)

batch_size, in_size, out_size = 32, 2, 3
key=jax.random.PRNGKey(0)
model_lin = eqx.nn.Linear(in_size, out_size, key=key)
model_seq = eqx.nn.Sequential(
        [
            eqx.nn.Linear(in_size, 4, key=key),
            eqx.nn.Linear(4, 1, key=key),
            eqx.nn.Linear(1, out_size, key=key),
        ]
    )
model_MLP = eqx.nn.MLP(in_size, out_size, 8, 2, key=key)

# Try these three models:
x = jax.numpy.zeros((batch_size, in_size), dtype=jnp.float32)
y = jax.numpy.zeros((batch_size, out_size), dtype=jnp.float32)
grads_lin = loss_fn(model_lin, x, y)
grads_seq = loss_fn(model_seq, x, y)
# grads_MLP = loss_fn(model_MLP, x, y)
_report({"jit(loss_fn)"}, 2)  # scaffolding
