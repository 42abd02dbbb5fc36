# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError
# expect: JIT801 at line 12
# runtime: ERROR TracerBoolConversionError
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axis",))
def normalize(x, axis, center):
    if center:
        x = x - x.mean(axis=axis, keepdims=True)
    return x / x.std(axis=axis, keepdims=True)


print(normalize(jnp.arange(6.0).reshape(2, 3), 1, True))
