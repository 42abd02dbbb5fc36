# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static_argnums: hashable)
# expect: JIT301 at line 22
# runtime: ERROR ValueError
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Shape:
    rows: int
    cols: int


@functools.partial(jax.jit, static_argnames="shape")
def filled(x, shape):
    return jnp.zeros((shape.rows, shape.cols)) + x


print(filled(1.0, shape=Shape(2, 3)))
