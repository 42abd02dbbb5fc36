import jax
import jax.numpy as jnp


def train(x, lr, steps):
    for step in range(steps):
        def update(v):
            return v - lr * v

        x = jax.jit(update)(x)
    return x


print(train(jnp.ones(2), 0.5, 3).tolist())
