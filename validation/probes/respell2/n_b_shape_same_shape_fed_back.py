# source: fixtures/shape_churn/slice_halved_each_iteration.py, look-alike: the jitted output fed back keeps its shape (slices recombined)
# expect: none
# runtime: COMPILES 1 CALLS 4
import jax
import jax.numpy as jnp


@jax.jit
def mix(x):
    return jnp.concatenate([x[::2] + x[1::2], x[::2] - x[1::2]])


x = jnp.arange(16.0)
while x[0] < 100.0:
    x = mix(x)
print(x)
