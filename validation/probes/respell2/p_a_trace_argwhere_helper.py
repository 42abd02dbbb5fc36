# source: validation/threads/heldout5/onnxrt29_nonzero_in_jitted_op.py / heldout6/jax9578 (data-dependent output shape), jnp.argwhere in a helper of a jitted function
# expect: JIT806 at line 9
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


def active_indices(x, threshold):
    return jnp.argwhere(x > threshold)  # <-


@jax.jit
def count_active(x):
    idx = active_indices(x, 0.5)
    return idx.shape[0]


print(count_active(jnp.array([0.1, 0.9, 0.7])))
