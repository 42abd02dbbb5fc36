# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static_argnums: hashable)
# expect: JIT301 at line 9
# runtime: ERROR ValueError
import jax.numpy as jnp

from config import KERNEL
from ops import tile

print(tile(jnp.ones((2, 2)), KERNEL))
