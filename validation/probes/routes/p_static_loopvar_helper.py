# source: https://docs.jax.dev/en/latest/jit-compilation.html (marking arguments as static: each new value compiles again)
# expect: JIT401 at line 21
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n


def degree_at(step):
    return step % 3 + 1


x = jnp.full(3, 1.01)
for step in range(3):
    x = power(x, degree_at(step))
print(x)
