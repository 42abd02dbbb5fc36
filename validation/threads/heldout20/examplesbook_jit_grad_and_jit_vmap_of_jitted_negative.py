# source: https://the-examples-book.com/book/python/jax
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: the book page's snippet (the JAX README example): grad_loss = jit(grad(loss)) and perex_grads = jit(vmap(grad_loss, ...)), a jit over an already-jitted function; the inner jit is inlined and each wrapper compiles once.
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
from jax import grad, jit, vmap
def predict(params, inputs):
  for W, b in params:
    outputs = jnp.dot(inputs, W) + b
    inputs = jnp.tanh(outputs) # inputs to the next layer
  return outputs # no activation on last layer
def loss(params, inputs, targets):
  preds = predict(params, inputs)
  return jnp.sum((preds - targets)**2)
grad_loss = jit(grad(loss)) # compiled gradient evaluation function
perex_grads = jit(vmap(grad_loss, in_axes=(None, 0, 0))) # fast perexample grads

import jax  # scaffolding
k1, k2, k3, k4 = jax.random.split(jax.random.PRNGKey(0), 4)  # scaffolding
params = [(jax.random.normal(k1, (3, 4)), jnp.zeros(4)), (jax.random.normal(k2, (4, 1)), jnp.zeros(1))]  # scaffolding
inputs = jax.random.normal(k3, (8, 3))  # scaffolding
targets = jax.random.normal(k4, (8, 1))  # scaffolding
g = grad_loss(params, inputs, targets)  # scaffolding
pg = perex_grads(params, inputs, targets)  # scaffolding
pg = perex_grads(params, inputs, targets)  # scaffolding
print("per-example grad shapes:", [w.shape for w, _ in pg])  # scaffolding
_report({"jit(loss)"}, 3)  # scaffolding
