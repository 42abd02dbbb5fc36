# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static arguments must be hashable and immutable)
# expect: JIT603 at line 17, 23, 24
# runtime: STALE COMPILES 1 CALLS 2
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
print(scaled(jnp.ones(2), config))
current = config
current.scale = 3.0
print(scaled(jnp.ones(2), config))
