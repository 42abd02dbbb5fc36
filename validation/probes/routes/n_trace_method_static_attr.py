# source: https://docs.jax.dev/en/latest/faq.html (how to use jit with methods)
# expect: none
# runtime: COMPILES 1 CALLS 1
import functools

import jax
import jax.numpy as jnp


class Clipper:
    def __init__(self, limit):
        self.limit = limit

    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        if self.limit > 0:
            return jnp.minimum(x, self.limit)
        return x


print(Clipper(1.0)(jnp.ones(3)))
