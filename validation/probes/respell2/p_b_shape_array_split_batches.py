# source: validation/threads/heldout5/jax16084_jitted_grad_over_ragged_groups.py / ragged batches (groups of unequal sizes to one jitted function), np.array_split into uneven chunks in a for loop
# expect: JIT504 at line 18
# expect: JIT501 at line 18
# runtime: COMPILES 2 CALLS 4
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def batch_loss(w, xb):
    return jnp.mean((xb @ w) ** 2)


data = np.ones((10, 2), dtype=np.float32)
w = jnp.ones(2)
for xb in np.array_split(data, 4):
    print(batch_loss(w, xb))  # <-
