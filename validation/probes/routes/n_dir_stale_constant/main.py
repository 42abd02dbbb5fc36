# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (pure functions: globals are read once, at trace time)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax.numpy as jnp

from model import apply

for _ in range(3):
    print(apply(jnp.ones(2)))
