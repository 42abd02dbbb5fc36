# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: a new shape or dtype compiles again)
# expect: JIT503 at line 17
# runtime: COMPILES 2 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def loss(x, mask):
    if mask is None:
        return x.sum()
    return (x * mask).sum()


for step in range(3):
    mask = None if step == 0 else jnp.ones(3)
    print(loss(jnp.ones(3), mask))
