# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static_argnums: hashable)
# expect: none
# runtime: COMPILES 1 CALLS 1
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def tile(x, reps):
    return jnp.tile(x, reps)


def layout(rows):
    return [rows, 1]


print(tile(jnp.ones(2), tuple(layout(2))))
