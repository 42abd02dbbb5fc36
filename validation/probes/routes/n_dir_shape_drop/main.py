# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (dynamic shapes)
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax

from data import batches


@jax.jit
def total(x):
    return x.sum()


for batch in batches(4):
    print(total(batch))
