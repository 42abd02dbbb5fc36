# source: ../shared/realworld/cases/jaxpr1637_jit_fresh_equal_partial.py (jit of a fresh functools.partial each call), the loop a walrus
# expect: JIT103 at line 17
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


def scaled(x, factor):
    return x * factor


x = jnp.ones(2)
remaining = 3
while (remaining := remaining - 1) >= 0:
    x = jax.jit(functools.partial(scaled, factor=1.5))(x)  # <-
print(x)
