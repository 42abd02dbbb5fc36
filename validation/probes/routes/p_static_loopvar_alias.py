# source: https://docs.jax.dev/en/latest/jit-compilation.html (marking arguments as static: each new value compiles again)
# expect: JIT401 at line 18
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n


x = jnp.full(3, 1.01)
for step in range(3):
    degree = step + 1
    x = power(x, degree)
print(x)
