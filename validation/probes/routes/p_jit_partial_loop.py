# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: don't create temporary functions in loops)
# expect: JIT103 at line 16
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


def scale(v, factor):
    return v * factor


x = jnp.ones(3)
for step in range(3):
    x = jax.jit(functools.partial(scale, factor=2.0))(x)
print(x)
