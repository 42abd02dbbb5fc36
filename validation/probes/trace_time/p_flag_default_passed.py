# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


@jax.jit
def func(x, normalize=True):
    if normalize:
        return x / x.sum()
    return x


print(func(jnp.arange(5.0), True))
