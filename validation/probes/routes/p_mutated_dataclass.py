# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static arguments must be hashable and immutable)
# expect: JIT603 at line 18, 23, 24
# runtime: STALE COMPILES 1 CALLS 2
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(eq=False)
class Config:
    scale: float


@functools.partial(jax.jit, static_argnames="config")
def scaled(x, config):
    return x * config.scale


config = Config(2.0)
print(scaled(jnp.ones(2), config=config))
config.scale = 3.0
print(scaled(jnp.ones(2), config=config))
