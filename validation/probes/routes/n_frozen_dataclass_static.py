# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static_argnums: hashable)
# expect: none
# runtime: COMPILES 1 CALLS 3
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Shape:
    rows: int
    cols: int


@functools.partial(jax.jit, static_argnames="shape")
def filled(x, shape):
    return jnp.zeros((shape.rows, shape.cols)) + x


for value in (1.0, 2.0, 3.0):
    print(filled(value, shape=Shape(2, 3)))
