# source: look-alike of p_trace_range_kwarg: times is static
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="times")
def repeat(x, times):
    for _ in range(times):
        x = x + 1
    return x


print(repeat(jnp.zeros(1), times=3))
