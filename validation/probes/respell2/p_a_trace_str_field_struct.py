# source: validation/threads/heldout4/chex327_dataclass_str_field_jit.py (a pytree with a str leaf passed traced), a flax.struct dataclass with a `name: str` field not marked pytree_node=False, jit as a decorator
# expect: JIT807 at line 11
# runtime: ERROR TypeError
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Batch:
    name: str  # <- the field to mark static (the call below raises)
    images: jax.Array


@jax.jit
def normalise(batch):
    return batch.images / 255.0


batch = Batch(name="train", images=jnp.ones((2, 3)))
print(normalise(batch))
