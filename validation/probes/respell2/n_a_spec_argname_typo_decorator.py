# source: look-alike of p_a_spec_argname_typo_decorator: the name spelled as the parameter
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("num_steps",))
def integrate(x, num_steps):
    for _ in range(num_steps):
        x = x + 0.1 * x
    return x


print(integrate(jnp.ones(2), num_steps=3))
