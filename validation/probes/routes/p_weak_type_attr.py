# source: https://docs.jax.dev/en/latest/type_promotion.html (weak types)
# expect: JIT502 at line 20
# runtime: COMPILES 2 CALLS 2
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, factor):
    return x * factor


class Config:
    factor = 1


config = Config()
for factor in (2, 0.5):
    config.factor = factor
    print(scale(jnp.ones(2), config.factor))
