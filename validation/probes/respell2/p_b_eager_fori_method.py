# source: validation/threads/heldout5/jax852_eager_fori_loop_in_python_loop.py (lax.fori_loop of a new body run eagerly inside a Python loop), `from jax.lax import fori_loop`, a lambda closing over the outer value, in a method
# expect: JIT520 at line 14, 19
# expect: JIT101 at line 14
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp
from jax.lax import fori_loop


class Smoother:
    def __init__(self, alpha):
        self.alpha = alpha

    def run(self, x, steps):
        return fori_loop(0, steps, lambda i, v: v * self.alpha + 1.0, x)  # <-


sm = Smoother(0.5)
for k in range(3):
    print(sm.run(jnp.ones(2) * k, 4))
