import jax.numpy as jnp


def relu(x):
    return jnp.where(x > 0, x, 0.0)
