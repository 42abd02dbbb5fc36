# source: ../shared/realworld/cases2/jax10601_static_argnums_out_of_range.py (static_argnums past the parameters), through functools.partial as a decorator with a tuple
# expect: JIT702 at line 10
# runtime: ERROR ValueError
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1, 2))  # <-
def shift(x, n):
    return x + n


print(shift(jnp.ones(2), 1))
