# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (pure functions: globals are read once, at trace time)
# expect: JIT601 at line 12, 16
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp

scale = 2.0


@jax.jit
def apply(x):
    return x * scale


print(apply(jnp.ones(2)))
scale = 3.0
print(apply(jnp.ones(2)))
