# source: validation/threads/heldout4/desc1781_none_then_float_default_recompiles.py (None, then values, to the same jitted argument), an optional mask left out then passed
# expect: JIT503 at line 19
# runtime: COMPILES 3 CALLS 3
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit)
def masked_mean(x, mask=None):
    if mask is None:
        return x.mean()
    return (x * mask).sum() / mask.sum()


x = jnp.arange(4.0)
print(masked_mean(x))
print(masked_mean(x, mask=jnp.ones(4)))  # <-
print(masked_mean(x, None))
