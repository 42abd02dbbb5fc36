# source: https://docs.jax.dev/en/latest/jit-compilation.html (marking arguments as static: each new value compiles again)
# expect: JIT401 at line 10
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp

import ops

x = jnp.full(3, 1.01)
for n in range(3):
    x = ops.power(x, n)
print(x)
