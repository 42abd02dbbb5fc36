# source: issue 27: a function attribute reassigned on a static object
# expect: JIT603 at line 16, 21, 22
# runtime: STALE COMPILES 1 CALLS 2
import functools

import jax
import jax.numpy as jnp


class Block:
    def __init__(self):
        self.activation = jax.nn.relu

    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return self.activation(x)


block = Block()
print(block(-jnp.ones(2)))
block.activation = jnp.tanh
print(block(-jnp.ones(2)))
