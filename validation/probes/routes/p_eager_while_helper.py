# source: https://docs.jax.dev/en/latest/control-flow.html (lax loops outside jit compile their body each call)
# expect: JIT520 at line 10, 14
# expect: JIT101 at line 10, 14
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp
from jax import lax


def halve_until_small(x):
    return lax.while_loop(lambda v: v.sum() > 1.0, lambda v: v / 2, x)


for start in (4.0, 8.0, 16.0):
    print(halve_until_small(jnp.full(2, start)))
