# source: validation/threads/heldout5/jax852_eager_fori_loop_in_python_loop.py, look-alike: the lax.cond of lambdas inside a jitted step, the loop outside
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def step(w, i):
    return lax.cond(i % 2 == 0, lambda v: v * 0.5, lambda v: v + 1.0, w)


w = jnp.ones(2)
for i in range(3):
    w = step(w, i)
print(w)
