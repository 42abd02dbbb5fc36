# source: validation/threads/heldout4/jax10601_static_argnames_not_in_signature.py (static_argnames naming no parameter), a singular/plural typo in a decorator, called in a loop
# expect: JIT701 at line 10
# runtime: ERROR ValueError
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("num_step",))  # <-
def integrate(x, num_steps):
    for _ in range(num_steps):
        x = x + 0.1 * x
    return x


for n in (2, 3):
    print(integrate(jnp.ones(2), num_steps=n))
