# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: don't create temporary functions in loops)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


def double(v):
    return v * 2


x = jnp.ones(3)
for _ in range(3):
    x = jax.jit(double)(x)
print(x)
