# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


@jax.jit
def func(x, y):
    return x if x.sum() < y.sum() else y


print(func(jnp.ones(4), jnp.zeros(4)))
