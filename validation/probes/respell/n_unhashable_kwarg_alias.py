# source: look-alike of p_unhashable_kwarg_alias: the axes a tuple
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axes",))
def reduce(x, axes):
    return jnp.sum(x, axis=tuple(axes))


x = jnp.ones((2, 3))
dims = (0, 1)
print(reduce(x, axes=dims))
