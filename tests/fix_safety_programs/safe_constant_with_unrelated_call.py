import jax
import jax.numpy as jnp

SCALE = 2.0
seen = []


def log(i):
    seen.append(i)


x = jnp.ones(2)
for step in range(3):
    x = jax.jit(lambda v: v * SCALE)(x)
    log(step)
print(x.tolist(), seen)
