# source: https://docs.jax.dev/en/latest/errors.html
# expect: none
# runtime: ok
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n")
def head(scale, x, n):
    return scale * x[:n]


print(jax.vmap(partial(head, 2.0, n=2))(jnp.ones((3, 4))))
