# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerArrayConversionError
# expect: JIT803 at line 11
# runtime: ERROR TracerArrayConversionError
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def func(x):
    return np.sin(x)


print(func(jnp.arange(4.0)))
