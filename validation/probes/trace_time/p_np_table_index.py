# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerArrayConversionError
# expect: JIT803 at line 12
# runtime: ERROR TracerArrayConversionError
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def func(i):
    x = np.arange(4)
    return x[i]


print(func(0))
