# source: https://docs.jax.dev/en/latest/errors.html
# expect: JIT301 at line 15
# runtime: ERROR ValueError
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n")
def head(scale, x, n):
    return scale * x[:n]


print(jax.vmap(partial(head, 2.0, jnp.arange(4.0)))(jnp.arange(3)))
