# source: ../shared/realworld/cases2/jax15761_varying_index_length.py (inputs of changing length), the sizes unpacked from rows of a list
# expect: JIT501 at line 14
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def norm(v):
    return jnp.sqrt(jnp.sum(v * v))


for label, n in [("small", 5), ("medium", 8), ("large", 10)]:
    print(label, norm(jnp.ones(n)))  # <-
