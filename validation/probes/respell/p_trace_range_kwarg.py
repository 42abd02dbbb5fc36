# source: ../shared/realworld/cases2/jax1406_range_of_traced_arg.py (range() of a traced argument), the argument by keyword and the jit a decorator with partial
# expect: JIT802 at line 12
# runtime: ERROR TracerIntegerConversionError
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit)
def repeat(x, times):
    for _ in range(times):  # <-
        x = x + 1
    return x


print(repeat(jnp.zeros(1), times=3))
