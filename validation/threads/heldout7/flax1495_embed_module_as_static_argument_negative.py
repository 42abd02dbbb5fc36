# source: https://github.com/google/flax/issues/1495
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: An unbound flax.linen nn.Embed passed as a static argument of a jitted, network-generic train_step: the 2021 report says nn.Embed could not be hashed, but on flax 0.12.8 it hashes and the step compiles once for two calls.

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
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp


# scaffolding: the reporter's colab is not in the thread; this is a train_step that is generic over
# the network, with the (unbound) module passed as a static argument, as the issue describes
@partial(jax.jit, static_argnums=(0,))
def train_step(model, params, x, y):
    def loss_fn(params):
        return jnp.mean((model.apply(params, x).sum(-1) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    return params, loss


model = nn.Embed(num_embeddings=10, features=4)
x = jnp.arange(8) % 10
y = jnp.ones(8)
params = model.init(jax.random.PRNGKey(0), x)
for _ in range(2):
    params, loss = train_step(model, params, x, y)
_report({"jit(train_step)"}, 2)
