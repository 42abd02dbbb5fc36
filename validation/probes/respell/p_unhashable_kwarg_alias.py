# source: ../shared/realworld/cases/genjax1179_list_static_arg.py (a list as a static argument), by keyword through a local name
# expect: JIT301 at line 17
# runtime: ERROR ValueError
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axes",))
def reduce(x, axes):
    return jnp.sum(x, axis=tuple(axes))


x = jnp.ones((2, 3))
dims = [0, 1]
print(reduce(x, axes=dims))  # <-
