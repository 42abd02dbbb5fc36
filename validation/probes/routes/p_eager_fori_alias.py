# source: https://docs.jax.dev/en/latest/control-flow.html (lax loops outside jit compile their body each call)
# expect: JIT520 at line 11
# expect: JIT101 at line 11
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp
from jax import lax

loop = lax.fori_loop
x = jnp.ones(3)
for _ in range(3):
    x = loop(0, 5, lambda i, v: v * 1.1, x)
print(x)
