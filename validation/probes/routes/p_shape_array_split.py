# source: issue 27: np.array_split leaves unequal chunks
# expect: JIT504 at line 16
# runtime: COMPILES 2 CALLS 3
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def total(x):
    return x.sum()


data = np.ones((10, 2))
for chunk in np.array_split(data, 3):
    print(total(chunk))
