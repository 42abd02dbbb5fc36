# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: a new function object each call)
# expect: JIT402 at line 23
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def apply(x, fn):
    return fn(x)


def make_activation(slope):
    def leaky(v):
        return jnp.where(v > 0, v, slope * v)
    return leaky


x = jnp.ones(3)
for _ in range(3):
    x = apply(x, make_activation(0.1))
print(x)
