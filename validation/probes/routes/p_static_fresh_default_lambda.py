# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: a new function object each call)
# expect: JIT402 at line 18
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def apply(x, fn):
    return fn(x)


def step(x, activation=None):
    if activation is None:
        activation = lambda v: jnp.tanh(v)  # noqa: E731
    return apply(x, activation)


x = jnp.ones(3)
for _ in range(3):
    x = step(x)
print(x)
