# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerIntegerConversionError
# expect: JIT802 at line 11
# runtime: ERROR TracerIntegerConversionError
import jax
import jax.numpy as jnp


@jax.jit
def func(i):
    lst = [1, 2, 3, 4]
    return lst[i]


print(func(0))
