import jax
import jax.numpy as jnp

OFFSET = 0.0


def shift():
    global OFFSET
    OFFSET += 1.0


x = jnp.zeros(2)
for step in range(3):
    @jax.jit
    def step_fn(v):
        return v + OFFSET

    x = step_fn(x)
    shift()
print(x.tolist())
