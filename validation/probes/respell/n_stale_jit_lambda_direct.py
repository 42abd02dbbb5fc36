# source: look-alike of p_stale_jit_lambda_direct: the scale is never changed after the first call
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp

scale = 2.0
apply = jax.jit(lambda v: v * scale)
print(apply(jnp.ones(2)))
print(apply(jnp.ones(2) + 1))
