# source: https://docs.jax.dev/en/latest/control-flow.html (lax loops outside jit compile their body each call)
# expect: JIT520 at line 10
# expect: JIT101 at line 10
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp
from jax import lax

x = jnp.ones(2)
for _ in range(3):
    x = lax.cond(x.sum() > 0, lambda v: v * 0.5, lambda v: v, x)
print(x)
