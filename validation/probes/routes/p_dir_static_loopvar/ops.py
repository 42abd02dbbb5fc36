import functools

import jax


@functools.partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n
