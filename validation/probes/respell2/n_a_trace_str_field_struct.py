# source: look-alike of p_a_trace_str_field_struct: the name field marked pytree_node=False
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Batch:
    images: jax.Array
    name: str = struct.field(pytree_node=False)


@jax.jit
def normalise(batch):
    return batch.images / 255.0


batch = Batch(name="train", images=jnp.ones((2, 3)))
print(normalise(batch))
