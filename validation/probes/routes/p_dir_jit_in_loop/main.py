# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: avoid jit of a new function in a loop)
# expect: JIT101 at utils.py line 5
# expect: JIT101 at line 11
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp

from utils import run_jitted

x = jnp.ones(3)
for _ in range(3):
    x = run_jitted(lambda v: v + 1, x)
print(x)
