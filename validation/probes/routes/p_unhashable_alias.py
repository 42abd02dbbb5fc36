# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static_argnums: hashable)
# expect: JIT301 at line 17
# runtime: ERROR ValueError
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def tile(x, reps):
    return jnp.tile(x, reps)


reps = [2, 1]
layout = reps
print(tile(jnp.ones(2), layout))
