# source: validation/threads/heldout6/jax1671_pmap_of_jit_with_static_argnums.py (a mapping transform passing a tracer to a static parameter), jax.vmap over a function decorated with partial(jax.jit, static_argnames=...), the flags mapped
# expect: JIT301 at line 18
# runtime: ERROR ValueError
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("use_bias",))
def layer(x, use_bias):
    return x * 2.0 + (1.0 if use_bias else 0.0)


batched = jax.vmap(layer)
xs = jnp.ones((2, 3))
flags = jnp.array([True, False])
print(batched(xs, flags))  # <-
