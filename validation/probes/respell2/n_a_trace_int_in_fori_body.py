# source: look-alike of p_a_trace_int_in_fori_body: the list made an array and indexed by the traced counter
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp
from jax import lax

SCALES = jnp.array([1.0, 0.5, 0.25])


def body(i, x):
    return x * SCALES[i]


@jax.jit
def anneal(x):
    return lax.fori_loop(0, SCALES.shape[0], body, x)


print(anneal(jnp.ones(2)))
