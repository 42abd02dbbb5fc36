# source: ../shared/realworld/cases/jax28225_stale_global_function.py (a jitted function reads a global changed later), the jitted function a lambda
# expect: JIT601 at line 8
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp

scale = 2.0
apply = jax.jit(lambda v: v * scale)  # <-
print(apply(jnp.ones(2)))
scale = 3.0
print(apply(jnp.ones(2)))
