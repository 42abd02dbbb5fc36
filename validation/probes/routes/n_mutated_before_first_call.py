# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static arguments must be hashable and immutable)
# expect: none
# runtime: COMPILES 1 CALLS 2
import functools

import jax
import jax.numpy as jnp


class Config:
    def __init__(self, scale):
        self.scale = scale


@functools.partial(jax.jit, static_argnums=1)
def scaled(x, config):
    return x * config.scale


config = Config(2.0)
config.scale = 3.0
print(scaled(jnp.ones(2), config))
print(scaled(jnp.ones(2), config))
