# source: look-alike of p_a_trace_or_default_lr: `or` on a parameter that is static (static_argnames), left to its default None
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("temperature",))
def sample_logits(logits, temperature=None):
    temperature = temperature or 1.0
    return logits / temperature


print(sample_logits(jnp.ones(3)))
