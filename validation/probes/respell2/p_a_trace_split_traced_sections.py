# source: validation/threads/heldout4/jax2506_split_traced_sections.py (jnp.split with traced sections), the sections from a traced argument through a local name, `import jax.numpy as np`
# expect: JIT802 at line 11
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as np


@jax.jit
def heads(qkv, n_heads):
    parts = n_heads
    return np.split(qkv, parts, axis=-1)  # <-


print(heads(np.ones((2, 6)), 3))
