# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: a new function object each call)
# expect: JIT402 at line 25
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def apply(x, fn):
    return fn(x)


class Clip:
    def __init__(self, low):
        self.low = low

    def __call__(self, v):
        return jnp.maximum(v, self.low)


x = jnp.ones(3)
for _ in range(3):
    x = apply(x, Clip(0.0))
print(x)
