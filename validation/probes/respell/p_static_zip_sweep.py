# source: ../shared/realworld/cases/optax577_optimizer_static_lr.py (a learning rate sweep as a static argument), the rates from zip
# expect: JIT401 at line 17
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("lr", "wd"))
def sgd(w, g, lr, wd):
    return w - lr * (g + wd * w)


w = jnp.ones(2)
for lr, wd in zip([0.1, 0.05, 0.01], [1e-4, 1e-4, 1e-4]):
    w = sgd(w, jnp.ones(2), lr=lr, wd=wd)  # <-
print(w)
