# source: look-alike of p_unhashable_kwargs_dict: the shape in **kwargs is a tuple
# expect: none
# runtime: COMPILES 1 CALLS 1
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="shape")
def make(x, shape):
    return jnp.broadcast_to(x, shape)


options = {"shape": (2, 3)}
print(make(jnp.float32(1.0), **options))
