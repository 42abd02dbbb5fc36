# source: ../shared/realworld/cases2/jax2813_list_static_arg.py (a list as a static argument), passed in **kwargs
# expect: JIT301 at line 16
# runtime: ERROR ValueError
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="shape")
def make(x, shape):
    return jnp.broadcast_to(x, shape)


options = {"shape": [2, 3]}
print(make(jnp.float32(1.0), **options))  # <-
