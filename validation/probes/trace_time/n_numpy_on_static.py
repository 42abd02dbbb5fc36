# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerArrayConversionError
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def scaled(x):
    scale = np.sqrt(x.shape[0])
    return x / scale + np.float32(np.pi)


print(scaled(jnp.ones(4)))
