# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (pure functions: globals are read once, at trace time)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


class Config:
    scale = 2.0


config = Config()


@jax.jit
def apply(x):
    return x * config.scale


for _ in range(3):
    print(apply(jnp.ones(2)))
