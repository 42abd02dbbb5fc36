import jax
import jax.numpy as jnp

SCALE = 1.0


def bump():
    global SCALE
    SCALE *= 2


x = jnp.ones(2)
for step in range(3):
    x = jax.jit(lambda v: v * SCALE)(x)
    bump()
print(x.tolist())
