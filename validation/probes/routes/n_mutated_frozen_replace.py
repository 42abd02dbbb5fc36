# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static arguments must be hashable and immutable)
# expect: none
# runtime: COMPILES 2 CALLS 2
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Config:
    scale: float


@functools.partial(jax.jit, static_argnames="config")
def scaled(x, config):
    return x * config.scale


config = Config(2.0)
print(scaled(jnp.ones(2), config=config))
config = dataclasses.replace(config, scale=3.0)
print(scaled(jnp.ones(2), config=config))
