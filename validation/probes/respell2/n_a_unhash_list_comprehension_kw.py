# source: look-alike of p_a_unhash_list_comprehension_kw: a tuple of the comprehension
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("limits",))
def clamp(x, limits):
    lo, hi = limits
    return jnp.clip(x, lo, hi)


def main():
    bounds = ("-1", "1")
    limits = tuple(float(b) for b in bounds)
    print(clamp(jnp.arange(-3.0, 3.0), limits=limits))


main()
