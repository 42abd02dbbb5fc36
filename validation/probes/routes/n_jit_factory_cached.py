# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: avoid jit of a new function in a loop)
# expect: none
# runtime: COMPILES 1 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.cache
def make_forward(scale):
    return jax.jit(lambda v: v * scale)


x = jnp.ones(3)
for _ in range(3):
    x = make_forward(2.0)(x)
print(x)
