# source: https://docs.kidger.site/equinox/api/transformations/
# expect: JIT101 at line 9
# runtime: COMPILES 3 CALLS 3
import equinox as eqx
import jax.numpy as jnp

x = jnp.ones(3)
for _ in range(3):
    x = eqx.filter_jit(lambda v: v * 2)(x)
print(x)
