# source: validation/threads/heldout6/jax7561_list_limits_as_static_arguments.py (a list as a static argument), the list set on self in __init__ and read as `self.limits` in a method calling a module-level jitted function
# expect: JIT301 at line 20
# runtime: ERROR ValueError
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def clamp(x, limits):
    return jnp.clip(x, limits[0], limits[1])


class Clipper:
    def __init__(self, lo, hi):
        self.limits = [lo, hi]

    def __call__(self, x):
        return clamp(x, self.limits)  # <-


print(Clipper(-1.0, 1.0)(jnp.arange(-3.0, 3.0)))
