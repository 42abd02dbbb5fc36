# source: issue 27: a running statistic with keepdims fed back into the state
# expect: JIT510 at line 15
# runtime: COMPILES 2 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def update(stats, x):
    return 0.9 * stats + 0.1 * x.mean(axis=0, keepdims=True)


stats = jnp.zeros(3)
for _ in range(3):
    stats = update(stats, jnp.ones((4, 3)))
print(stats)
