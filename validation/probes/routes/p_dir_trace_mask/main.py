# source: https://docs.jax.dev/en/latest/errors.html
# expect: JIT806 at ops.py line 2
# runtime: ERROR NonConcreteBooleanIndexError
import jax
import jax.numpy as jnp

import ops


@jax.jit
def total_positive(x):
    return ops.positives(x).sum()


print(total_positive(jnp.arange(-2.0, 3.0)))
