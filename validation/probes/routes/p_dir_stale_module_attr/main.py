# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (pure functions: globals are read once, at trace time)
# expect: JIT601 at model.py line 8
# expect: JIT601 at line 11
# runtime: STALE COMPILES 1 CALLS 2
import jax.numpy as jnp

import settings
from model import apply

print(apply(jnp.ones(2)))
settings.scale = 3.0
print(apply(jnp.ones(2)))
