# source: https://docs.jax.dev/en/latest/faq.html (how to use jit with methods)
# expect: JIT801 at line 16
# runtime: ERROR TracerBoolConversionError
import functools

import jax
import jax.numpy as jnp


class Clipper:
    def __init__(self, limit):
        self.limit = limit

    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        if x.sum() > self.limit:
            return x / x.sum()
        return x


print(Clipper(1.0)(jnp.ones(3)))
