# source: ../shared/realworld/cases/jax2570_force_recompile_lambda.py (a fresh jit of a lambda per call), in a list comprehension
# expect: JIT101 at line 8
# runtime: COMPILES 3 CALLS 3
from jax import numpy as jnp
from jax import jit

xs = [jnp.full(2, float(i)) for i in range(3)]
ys = [jit(lambda v: v * 2 + 1)(x) for x in xs]  # <-
print(ys)
