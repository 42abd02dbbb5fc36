# source: fixtures/shape_churn/slice_halved_each_iteration.py (the jitted output fed back with half the length), a pairwise reduction in a while loop on x.shape
# expect: JIT501 at line 15
# runtime: COMPILES 4 CALLS 4
import jax
import jax.numpy as jnp


@jax.jit
def pairwise_sum(x):
    return x[::2] + x[1::2]


x = jnp.arange(16.0)
while x.shape[0] > 1:
    x = pairwise_sum(x)  # <-
print(x)
