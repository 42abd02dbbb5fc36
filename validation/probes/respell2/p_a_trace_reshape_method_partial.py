# source: validation/threads/heldout6/jax1629_reshape_with_traced_dims.py (reshape to a traced size), the `.reshape` method with a size passed positionally while static_argnames names another parameter
# expect: JIT802 at line 12
# runtime: ERROR TypeError
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("reduce",))
def chunked_sum(x, n_chunks, reduce="sum"):
    chunks = x.reshape(n_chunks, -1)  # <-
    return chunks.sum(axis=1) if reduce == "sum" else chunks.mean(axis=1)


print(chunked_sum(jnp.arange(12.0), 3))
