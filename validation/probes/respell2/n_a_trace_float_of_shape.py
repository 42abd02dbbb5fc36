# source: look-alike of p_a_trace_int_ceil_helper: int()/float() of static shapes inside the jit
# expect: none
# runtime: COMPILES 1 CALLS 1
import math

import jax
import jax.numpy as jnp


def n_chunks(x, width):
    return int(math.ceil(x.shape[0] / width))


@jax.jit
def chunk_means(x):
    n = n_chunks(x, 2)
    scale = float(x.shape[0])
    return jnp.zeros(n) + x.sum() / scale


print(chunk_means(jnp.arange(5.0)))
