# source: https://docs.jax.dev/en/latest/jit-compilation.html (marking arguments as static: each new value compiles again)
# expect: none
# runtime: COMPILES 1 CALLS 3
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Config(NamedTuple):
    degree: int
    scale: float


@functools.partial(jax.jit, static_argnums=1)
def power(x, config):
    return config.scale * x ** config.degree


config = Config(degree=2, scale=1.0)
x = jnp.full(3, 1.01)
for step in range(3):
    x = power(x, config)
print(x)
