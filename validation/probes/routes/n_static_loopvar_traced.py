# source: https://docs.jax.dev/en/latest/jit-compilation.html (marking arguments as static: each new value compiles again)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def power(x, n):
    return x ** n


x = jnp.full(3, 1.01)
for n in range(3):
    x = power(x, n)
print(x)
