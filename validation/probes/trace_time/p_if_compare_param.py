# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    if x < 3:
        return 3.0 * x ** 2
    return -4 * x


print(f(2.0))
