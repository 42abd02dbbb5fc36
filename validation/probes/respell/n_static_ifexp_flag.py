# source: look-alike of p_static_ifexp_main: the test does not change in the loop and picks the fixed branch
# expect: none
# runtime: COMPILES 1 CALLS 4
from functools import partial

from jax import jit
import jax.numpy as jnp

USE_SCHEDULE = False


@partial(jit, static_argnums=1)
def power(x, n):
    return x ** n


def main():
    x = jnp.full(2, 1.1)
    for step in range(4):
        n = step + 1 if USE_SCHEDULE else 2
        x = power(x, n)
    print(x)


main()
