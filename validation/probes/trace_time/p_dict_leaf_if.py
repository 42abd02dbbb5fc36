# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


@jax.jit
def scale(params, x):
    if params["gain"] > 1.0:
        return x * params["gain"]
    return x


print(scale({"gain": jnp.array(2.0)}, jnp.ones(3)))
