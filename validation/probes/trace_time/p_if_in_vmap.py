# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 9
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


def relu(x):
    if x > 0:
        return x
    return 0.0


print(jax.vmap(relu)(jnp.arange(-2.0, 3.0)))
