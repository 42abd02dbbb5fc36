# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: a new function object each call)
# expect: none
# runtime: COMPILES 1 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def apply(x, fn):
    return fn(x)


class Leaky:
    def __init__(self, slope):
        self.slope = slope

    def __hash__(self):
        return hash(self.slope)

    def __eq__(self, other):
        return isinstance(other, Leaky) and other.slope == self.slope

    def __call__(self, v):
        return jnp.where(v > 0, v, self.slope * v)


x = jnp.ones(3)
for _ in range(3):
    x = apply(x, Leaky(0.1))
print(x)
