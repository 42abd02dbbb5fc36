import jax
import jax.numpy as jnp


def grow(state):
    state.append(state[-1] + 1.0)


history = [1.0]
x = jnp.ones(2)
for step in range(3):
    x = jax.jit(lambda v: v * history[-1])(x)
    grow(history)
print(x.tolist())
