# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: a new function object each call)
# expect: JIT402 at line 22
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def apply(x, fn):
    return fn(x)


def scale(v, factor):
    return v * factor


scale_fast = jax.jit(scale)
x = jnp.ones(3)
for _ in range(3):
    x = apply(x, functools.partial(scale_fast, factor=2.0))
print(x)
