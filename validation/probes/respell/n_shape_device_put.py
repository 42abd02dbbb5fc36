# source: look-alike of p_shape_device_put: the batch keeps its shape
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def total(batch):
    return jnp.sum(batch)


for scale in range(3):
    batch = jax.device_put(np.full((4, 2), scale, dtype=np.float32))
    print(total(batch))
