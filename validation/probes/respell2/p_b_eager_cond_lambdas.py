# source: validation/threads/heldout5/jax852_eager_fori_loop_in_python_loop.py (lax control flow of fresh callables run eagerly in a Python loop), lax.cond of lambdas in a training loop
# expect: JIT520 at line 9
# expect: JIT101 at line 9
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp
from jax import lax

w = jnp.ones(2)
for step in range(3):
    w = lax.cond(step % 2 == 0, lambda v: v * 0.5, lambda v: v + 1.0, w)  # <-
print(w)
