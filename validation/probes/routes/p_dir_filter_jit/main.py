# source: https://docs.kidger.site/equinox/api/transformations/ (filter_jit: Python scalars are static)
# expect: JIT403 at line 11
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp

from optim import sgd
from schedules import inverse_decay

params = jnp.ones(3)
for step in range(3):
    params = sgd(params, params, inverse_decay(step))
print(params)
