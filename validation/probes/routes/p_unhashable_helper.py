# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static_argnums: hashable)
# expect: JIT301 at line 19
# runtime: ERROR ValueError
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def tile(x, reps):
    return jnp.tile(x, reps)


def layout(rows):
    return [rows, 1]


print(tile(jnp.ones(2), layout(2)))
