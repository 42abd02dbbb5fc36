# source: ../shared/realworld/cases/optax577_optimizer_static_lr.py (a learning rate that changes per step as a static argument), with enumerate over a list
# expect: JIT401 at line 17
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("lr",))
def sgd(w, g, lr):
    return w - lr * g


w = jnp.ones(2)
for epoch, lr in enumerate([0.1, 0.05, 0.01]):
    w = sgd(w, jnp.full(2, float(epoch)), lr=lr)  # <-
print(w)
