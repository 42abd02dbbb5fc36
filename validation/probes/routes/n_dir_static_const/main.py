# source: https://docs.jax.dev/en/latest/jit-compilation.html (marking arguments as static: each new value compiles again)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax.numpy as jnp

import ops

x = jnp.full(3, 1.01)
for _ in range(3):
    x = ops.power(x, ops.DEGREE)
print(x)
