# source: look-alike of p_spec_argnames_call: the keyword-only parameter named right
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


def scale(x, *, factor):
    return x * factor


scale_fast = jax.jit(scale, static_argnames="factor")
print(scale_fast(jnp.ones(2), factor=2))
