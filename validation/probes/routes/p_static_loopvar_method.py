# source: https://docs.jax.dev/en/latest/jit-compilation.html (marking arguments as static: each new value compiles again)
# expect: JIT401 at line 22
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale):
        self.scale = scale

    @functools.partial(jax.jit, static_argnums=(0, 2))
    def apply(self, x, depth):
        for _ in range(depth):
            x = jnp.tanh(x * self.scale)
        return x

    def fit(self, x):
        for depth in range(3):
            x = self.apply(x, depth)
        return x


print(Model(2.0).fit(jnp.ones(3)))
