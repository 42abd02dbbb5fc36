# source: look-alike of p_trace_ifexp: jnp.where and logical_and
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


def relu_like(x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.where(jnp.logical_and(x > 0, y > 0), x, -x)


fast = jax.jit(relu_like)
print(fast(jnp.float32(1.0), jnp.float32(2.0)))
