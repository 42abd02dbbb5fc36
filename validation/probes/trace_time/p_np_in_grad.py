# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerArrayConversionError
# expect: JIT803 at line 10
# runtime: ERROR TracerArrayConversionError
import jax
import jax.numpy as jnp
import numpy as np


def loss(w):
    return np.sum(np.square(w))


print(jax.grad(loss)(jnp.ones(3)))
