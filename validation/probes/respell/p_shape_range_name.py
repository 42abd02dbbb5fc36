# source: ../shared/realworld/cases2/jax15761_varying_index_length.py (inputs of changing length), the range bound to a name before the loop
# expect: JIT501 at line 15
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return x.sum()


lengths = range(2, 5)
for n in lengths:
    print(total(jnp.zeros((n, 2))))  # <-
