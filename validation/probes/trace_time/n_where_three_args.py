# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    return jnp.where(x > 0, x, 0.0)


print(relu(jnp.arange(-2.0, 2.0)))
