# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: none
# runtime: ok
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def positions(x, length):
    return x[:length] + jnp.arange(length)


print(positions(jnp.ones(8), 5))
