# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: a new shape or dtype compiles again)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return x.sum()


for _ in range(3):
    print(total(jnp.ones(4)))
