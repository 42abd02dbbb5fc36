# source: https://docs.jax.dev/en/latest/faq.html (strategy 2: static self; mutating it gives stale results)
# expect: none
# runtime: COMPILES 1 CALLS 3
import functools

import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return x * self.factor


scaler = Scaler(2.0)
for _ in range(3):
    print(scaler(jnp.ones(2)))
