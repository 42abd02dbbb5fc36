# source: https://docs.jax.dev/en/latest/control-flow.html (lax loops outside jit compile their body each call)
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp

x = jax.lax.fori_loop(0, 5, lambda i, v: v * 1.1, jnp.ones(3))
print(x)
