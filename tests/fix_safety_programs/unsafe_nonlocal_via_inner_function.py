import jax
import jax.numpy as jnp


def run():
    scale = 1.0

    def bump():
        nonlocal scale
        scale += 1.0

    x = jnp.ones(2)
    for step in range(3):
        x = jax.jit(lambda v: v * scale)(x)
        bump()
    return x


print(run().tolist())
