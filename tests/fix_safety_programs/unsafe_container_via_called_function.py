import jax
import jax.numpy as jnp

params = {"scale": 1.0}


def grow():
    params["scale"] += 1.0


x = jnp.ones(2)
for step in range(3):
    x = jax.jit(lambda v: v * params["scale"])(x)
    grow()
print(x.tolist())
