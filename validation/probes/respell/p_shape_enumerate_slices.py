# source: ../shared/realworld/cases2/jax15761_varying_index_length.py (index arrays of changing length), via enumerate and numpy imported as onp
# expect: JIT501 at line 17
# runtime: COMPILES 3 CALLS 3
import numpy as onp
import jax
from jax import numpy as jnp


def gather(vec, indices):
    return vec[indices].sum()


gather = jax.jit(gather)
vec = jnp.ones(20)
for i, n in enumerate((5, 8, 10)):
    idx = jnp.asarray(onp.arange(n))
    print(i, gather(vec, idx))  # <-
