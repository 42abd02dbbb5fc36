import jax
import jax.numpy as jnp

SCALE = 1.0


def scaled(v):
    return v * SCALE


def bump():
    global SCALE
    SCALE += 1.0


x = jnp.ones(2)
for step in range(3):
    x = jax.jit(lambda v: scaled(v) + 1.0)(x)
    bump()
print(x.tolist())
