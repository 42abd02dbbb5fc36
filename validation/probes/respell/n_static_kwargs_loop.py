# source: look-alike of p_static_kwargs_loop: the same static value on every call
# expect: none
# runtime: COMPILES 1 CALLS 3
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n")
def power(x, n):
    return x ** n


x = jnp.full(2, 1.01)
for step in range(3):
    x = power(x, **dict(n=2))
print(x)
