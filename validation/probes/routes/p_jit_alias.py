# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: don't create temporary functions in loops)
# expect: JIT101 at line 9
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp
from jax import jit as compile_fn

x = jnp.ones(3)
for _ in range(3):
    x = compile_fn(lambda v: v * 2)(x)
print(x)
