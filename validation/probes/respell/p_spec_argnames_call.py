# source: ../shared/realworld/cases2/jax10601_static_argnames_nonexistent.py (static_argnames naming no parameter), as a call with a string and a keyword-only parameter
# expect: JIT701 at line 12
# runtime: ERROR ValueError
import jax
import jax.numpy as jnp


def scale(x, *, factor):
    return x * factor


scale_fast = jax.jit(scale, static_argnames="factors")  # <-
print(scale_fast(jnp.ones(2), factor=2))
