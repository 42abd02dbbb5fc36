# source: look-alike of p_trace_sum_axis_positional: the axis is static
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as np


@partial(jax.jit, static_argnums=1)
def total(x, ax):
    return np.sum(x, ax)


print(total(np.ones((2, 3)), 1))
