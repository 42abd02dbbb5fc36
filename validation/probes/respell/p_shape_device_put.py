# source: ../shared/realworld/cases2/jax15761_varying_index_length.py (inputs of changing length), the batch moved with jax.device_put
# expect: JIT501 at line 17
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def total(batch):
    return jnp.sum(batch)


sizes = [4, 6, 9]
for size in sizes:
    batch = jax.device_put(np.ones((size, 2), dtype=np.float32))
    print(total(batch))  # <-
