import functools

import jax


class Dense:
    def __init__(self, scale):
        self.scale = scale

    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return x * self.scale
