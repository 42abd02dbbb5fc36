# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static_argnums: hashable)
# expect: JIT301 at line 21
# runtime: ERROR ValueError
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def tile(x, reps):
    return jnp.tile(x, reps)


class Config:
    def __init__(self):
        self.reps = [2, 1]


cfg = Config()
print(tile(jnp.ones(2), cfg.reps))
