import jax

import settings


@jax.jit
def apply(x):
    return x * settings.scale
