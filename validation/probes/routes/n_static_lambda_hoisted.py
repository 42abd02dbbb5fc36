# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: a new function object each call)
# expect: none
# runtime: COMPILES 1 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def apply(x, fn):
    return fn(x)


double = lambda v: v * 2  # noqa: E731
x = jnp.ones(3)
for _ in range(3):
    x = apply(x, double)
print(x)
