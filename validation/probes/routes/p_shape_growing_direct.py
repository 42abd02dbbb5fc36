# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: a new shape or dtype compiles again)
# expect: JIT501 at line 14
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return x.sum()


for n in range(1, 4):
    print(total(jnp.ones(n)))
