# source: https://docs.jax.dev/en/latest/pytrees.html
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


@jax.jit
def scaled(x, params):
    return x * params["scale"]


params = {"scale": 2.0}
print(scaled(jnp.ones(2), params))
params["scale"] = 3.0
print(scaled(jnp.ones(2), params))
