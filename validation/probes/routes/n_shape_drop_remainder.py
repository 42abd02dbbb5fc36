# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (dynamic shapes)
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def total(x):
    return x.sum()


def batches(data, size):
    for start in range(0, len(data) - size + 1, size):
        yield data[start:start + size]


for batch in batches(np.ones((10, 2)), 4):
    print(total(batch))
