# source: https://docs.jax.dev/en/latest/pytrees.html
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


@jax.jit
def total(xs):
    return sum(x.sum() for x in xs)


parts = [jnp.ones(2), jnp.ones(3)]
print(total(parts))
