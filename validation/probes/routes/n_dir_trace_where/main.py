# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp

from ops import relu


@jax.jit
def layer(x):
    return relu(x.sum())


print(layer(jnp.ones(3)))
