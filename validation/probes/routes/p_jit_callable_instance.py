# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: avoid jit of a new function in a loop)
# expect: JIT105 at line 20
# runtime: COMPILES 3 CALLS 3
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(eq=False)
class Scale:
    factor: float

    def __call__(self, v):
        return v * self.factor


x = jnp.ones(3)
for _ in range(3):
    x = jax.jit(Scale(2.0))(x)
print(x)
