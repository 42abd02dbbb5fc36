import jax
import jax.numpy as jnp

weights = [0.5, 2.0]
x = jnp.ones(2)
for step in range(3):
    x = jax.jit(lambda v: v * weights[-1])(x)
    print(sum(weights))
print(x.tolist())
