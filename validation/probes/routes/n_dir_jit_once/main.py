# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: avoid jit of a new function in a loop)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax.numpy as jnp

from utils import compiled

step = compiled(lambda v: v + 1)
x = jnp.ones(3)
for _ in range(3):
    x = step(x)
print(x)
