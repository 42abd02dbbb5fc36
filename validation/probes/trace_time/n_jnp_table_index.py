# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerArrayConversionError
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp
import numpy as np

TABLE = jnp.asarray(np.arange(4) * 2)


@jax.jit
def func(i):
    return TABLE[i]


print(func(1))
