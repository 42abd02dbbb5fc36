# source: ../shared/realworld/cases/jax13071_double_partial_static.py (a static argument new per call), bound by a walrus at the call
# expect: JIT401 at line 17
# runtime: COMPILES 3 CALLS 3
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n


x = jnp.full(2, 1.01)
for step in range(3):
    x = power(x, n := step + 1)  # <-
    print(n, x)
