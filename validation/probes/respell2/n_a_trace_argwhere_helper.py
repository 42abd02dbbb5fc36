# source: look-alike of p_a_trace_argwhere_helper: argwhere with size= and fill_value=
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


def active_indices(x, threshold):
    return jnp.argwhere(x > threshold, size=x.shape[0], fill_value=-1)


@jax.jit
def count_active(x):
    idx = active_indices(x, 0.5)
    return jnp.sum(idx[:, 0] >= 0)


print(count_active(jnp.array([0.1, 0.9, 0.7])))
