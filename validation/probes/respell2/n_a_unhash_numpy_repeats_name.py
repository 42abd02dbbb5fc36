# source: look-alike of p_a_unhash_numpy_repeats_name: the repeats passed as a tuple of ints
# expect: none
# runtime: COMPILES 1 CALLS 1
import numpy as np

import jax
import jax.numpy as jnp


def upsample(x, repeats):
    return jnp.repeat(x, np.array(repeats), total_repeat_length=int(sum(repeats)))


upsample_jit = jax.jit(upsample, static_argnums=(1,))
reps = tuple(np.full(3, 2).tolist())
print(upsample_jit(jnp.arange(3.0), reps))
