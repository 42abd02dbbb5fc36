import functools

import jax

DEGREE = 2


@functools.partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n
