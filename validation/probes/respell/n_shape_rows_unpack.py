# source: look-alike of p_shape_rows_unpack: every row has the same size
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def norm(v):
    return jnp.sqrt(jnp.sum(v * v))


for label, n in [("small", 8), ("medium", 8), ("large", 8)]:
    print(label, norm(jnp.ones(n)))
