# source: ../shared/realworld/cases/optax577_optimizer_static_lr.py (a value updated every step as a static argument), a while loop that updates before the call
# expect: JIT401 at line 21
# runtime: COMPILES 3 CALLS 3
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="lr")
def sgd(w, lr):
    return w - lr * w


def main():
    w = jnp.ones(2)
    lr = 0.1
    epoch = 0
    while epoch < 3:
        lr *= 0.5
        w = sgd(w, lr=lr)  # <-
        epoch += 1
    print(w)


main()
