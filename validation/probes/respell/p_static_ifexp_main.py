# source: ../shared/realworld/cases/jax13071_double_partial_static.py (a static argument that takes a new value per step), the value a conditional expression in main()
# expect: JIT401 at line 19
# runtime: COMPILES 4 CALLS 4
from functools import partial

from jax import jit
import jax.numpy as jnp


@partial(jit, static_argnums=1)
def power(x, n):
    return x ** n


def main():
    x = jnp.full(2, 1.1)
    for step in range(4):
        n = step + 1 if step > 0 else 1
        x = power(x, n)  # <-
    print(x)


main()
