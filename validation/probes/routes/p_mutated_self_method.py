# source: https://docs.jax.dev/en/latest/faq.html (strategy 2: static self; mutating it gives stale results)
# expect: JIT603 at line 16, 21, 22
# runtime: STALE COMPILES 1 CALLS 2
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
print(scaler(jnp.ones(2)))
scaler.factor = 3.0
print(scaler(jnp.ones(2)))
