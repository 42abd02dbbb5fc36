# source: look-alike of p_static_while_increment: the rate is reset before its update on every step (the same value each call)
# expect: none
# runtime: COMPILES 1 CALLS 3
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
        lr = 0.1
        lr *= 0.5
        w = sgd(w, lr=lr)
        epoch += 1
    print(w)


main()
