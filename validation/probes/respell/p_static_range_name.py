# source: ../shared/realworld/cases/jax13071_double_partial_static.py (a static argument new per call), the range bound to a name before the loop
# expect: JIT401 at line 18
# runtime: COMPILES 3 CALLS 3
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n


x = jnp.full(2, 1.01)
degrees = range(1, 4)
for n in degrees:
    x = power(x, n)  # <-
print(x)
