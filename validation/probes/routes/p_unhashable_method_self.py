# source: https://docs.jax.dev/en/latest/faq.html (how to use jit with methods)
# expect: JIT301 at line 15, 21
# runtime: ERROR ValueError
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Scaler:
    factor: float

    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return x * self.factor


scaler = Scaler(2.0)
print(scaler(jnp.ones(2)))
