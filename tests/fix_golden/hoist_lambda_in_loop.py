import jax
import jax.numpy as jnp

x = jnp.ones(3)
jitted_lambda = jax.jit(lambda v: v * 2.0)

# Double the values a few times.
for step in range(5):
    x = jitted_lambda(x)  # expect: JIT101
print(x.tolist())
