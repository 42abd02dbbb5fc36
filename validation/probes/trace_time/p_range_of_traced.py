# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerIntegerConversionError
# expect: JIT802 at line 11
# runtime: ERROR TracerIntegerConversionError
import jax
import jax.numpy as jnp


@jax.jit
def power(x, n):
    out = jnp.ones_like(x)
    for _ in range(n):
        out = out * x
    return out


print(power(jnp.arange(3.0), 3))
