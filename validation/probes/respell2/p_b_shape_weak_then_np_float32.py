# source: validation/threads/heldout5/jax23302_weak_then_strong_scalar.py (a Python float then a strongly typed scalar to the same jitted function), np.float32 from a config
# expect: JIT502 at line 17
# runtime: COMPILES 2 CALLS 2
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def scale(x, s):
    return x * s


x = jnp.ones(3)
print(scale(x, 2.0))
cfg = {"s": np.float32(2.0)}
print(scale(x, cfg["s"]))  # <-
