import jax.numpy as jnp
from jax import lax


def simulate(state, steps):
    return lax.fori_loop(0, steps, lambda i, s: s + 0.1 * jnp.sin(s), state)
