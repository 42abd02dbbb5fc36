# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp


def normalize(row):
    return row / jnp.maximum(jnp.linalg.norm(row), 1e-6)


print(jax.vmap(normalize)(jnp.ones((3, 2))))
