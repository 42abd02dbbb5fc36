# source: https://docs.jax.dev/en/latest/type_promotion.html (weak types)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, factor):
    return x * factor


for factor in (2.0, 0.5, 3.0):
    print(scale(jnp.ones(2), factor))
