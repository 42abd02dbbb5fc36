# source: issue 27: a callable with __hash__ but identity __eq__ as a static argument
# expect: JIT402 at line 28
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def apply(x, fn):
    return fn(x)


class Leaky:
    def __init__(self, slope):
        self.slope = slope

    def __hash__(self):
        return hash(self.slope)

    def __call__(self, v):
        return jnp.where(v > 0, v, self.slope * v)


x = jnp.ones(3)
for _ in range(3):
    x = apply(x, Leaky(0.1))
print(x)
