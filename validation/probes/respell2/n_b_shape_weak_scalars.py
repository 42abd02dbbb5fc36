# source: validation/threads/heldout5/jax23302_weak_then_strong_scalar.py, look-alike: Python floats on both calls (both weak float32)
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, s):
    return x * s


x = jnp.ones(3)
print(scale(x, 2.0))
cfg = {"s": 3.0}
print(scale(x, cfg["s"]))
