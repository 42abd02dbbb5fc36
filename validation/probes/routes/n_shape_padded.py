# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (dynamic shapes)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return x.sum()


data = jnp.arange(10.0)
for end in range(1, 4):
    print(total(jnp.pad(data[:end], (0, 4 - end))))
