# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: a new shape or dtype compiles again)
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def total(x):
    return x.sum()


data = np.ones((10, 2))
for chunk in np.array_split(data, 2):
    print(total(chunk))
