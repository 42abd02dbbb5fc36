# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: none
# runtime: ok
import functools

import jax
import jax.numpy as jnp


def window(x, width, scale):
    return jnp.convolve(x, jnp.ones(width) / width) * scale


smooth = jax.jit(functools.partial(window, width=3))
print(smooth(jnp.arange(8.0), scale=2.0))
