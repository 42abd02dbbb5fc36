# source: validation/threads/heldout6/jax7561_list_limits_as_static_arguments.py (a list as a static argument), built by a list comprehension in main() and passed by keyword to a static_argnames parameter
# expect: JIT301 at line 19
# runtime: ERROR ValueError
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("limits",))
def clamp(x, limits):
    lo, hi = limits
    return jnp.clip(x, lo, hi)


def main():
    bounds = ("-1", "1")
    limits = [float(b) for b in bounds]
    print(clamp(jnp.arange(-3.0, 3.0), limits=limits))  # <-


main()
