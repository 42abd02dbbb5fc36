# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at ops.py line 2
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp

from ops import relu


@jax.jit
def layer(x):
    return relu(x.sum())


print(layer(jnp.ones(3)))
