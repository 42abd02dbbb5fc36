# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError
# expect: JIT801 at line 11
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


@jax.jit
def relu_sum(x):
    total = jnp.sum(x)
    return max(total, 0.0)


print(relu_sum(jnp.arange(3.0)))
