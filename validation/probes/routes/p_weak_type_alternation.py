# source: https://docs.jax.dev/en/latest/type_promotion.html (weak types)
# expect: JIT502 at line 14
# runtime: COMPILES 2 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, factor):
    return x * factor


for factor in (2, 0.5, 3):
    print(scale(jnp.ones(2), factor))
