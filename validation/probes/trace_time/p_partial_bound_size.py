# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 11
# runtime: ERROR TypeError
import functools

import jax
import jax.numpy as jnp


def window(x, width, scale):
    return jnp.convolve(x, jnp.ones(width) / width) * scale


smooth = jax.jit(functools.partial(window, scale=2.0))
print(smooth(jnp.arange(8.0), 3))
