# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (pure functions: globals are read once, at trace time)
# expect: JIT601 at line 17, 21
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


class Config:
    scale = 2.0


config = Config()


@jax.jit
def apply(x):
    return x * config.scale


print(apply(jnp.ones(2)))
config.scale = 3.0
print(apply(jnp.ones(2)))
