# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: a new shape or dtype compiles again)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def update(stats, x):
    return 0.9 * stats + 0.1 * x.mean(axis=0)


stats = jnp.zeros(3)
for _ in range(3):
    stats = update(stats, jnp.ones((4, 3)))
print(stats)
