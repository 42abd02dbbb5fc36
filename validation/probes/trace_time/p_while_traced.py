# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


@jax.jit
def double_until(x):
    while x.sum() < 100:
        x = x * 2
    return x


print(double_until(jnp.ones(3)))
