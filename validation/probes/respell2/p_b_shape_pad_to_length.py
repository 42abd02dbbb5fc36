# source: validation/threads/heldout5/jax15412_changing_matrix_shapes.py (arrays of a different size per iteration to one jitted function), a sequence padded to its own length, lengths from a list of sentences
# expect: JIT501 at line 16
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def encode(ids):
    return jnp.cumsum(ids)


sentences = [[1, 2], [3, 4, 5], [6, 7, 8, 9]]
for sent in sentences:
    ids = jnp.array(sent)
    print(encode(ids))  # <-
