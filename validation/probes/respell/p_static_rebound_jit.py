# source: ../shared/realworld/cases/jax13071_double_partial_static.py (a static argument new per call), the def rebound to its jit (f = jax.jit(f, ...))
# expect: JIT401 at line 15
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


def power(x, n):
    return x ** n


power = jax.jit(power, static_argnums=1)
x = jnp.full(2, 1.01)
for step in range(3):
    x = power(x, step + 1)  # <-
print(x)
