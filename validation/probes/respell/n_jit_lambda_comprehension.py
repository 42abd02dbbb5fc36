# source: look-alike of p_jit_lambda_comprehension: the lambda jitted once, the comprehension calls it
# expect: none
# runtime: COMPILES 1 CALLS 3
from jax import numpy as jnp
from jax import jit

xs = [jnp.full(2, float(i)) for i in range(3)]
affine = jit(lambda v: v * 2 + 1)
ys = [affine(x) for x in xs]
print(ys)
