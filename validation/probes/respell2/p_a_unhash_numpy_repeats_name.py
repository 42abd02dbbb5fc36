# source: validation/threads/heldout4/jax4099_array_as_static_repeats.py (a NumPy array as a static argument), `np.full` bound to a name, jit as a call with static_argnums
# expect: JIT301 at line 16
# runtime: ERROR ValueError
import numpy as np

import jax
import jax.numpy as jnp


def upsample(x, repeats):
    return jnp.repeat(x, repeats, total_repeat_length=int(sum(repeats)))


upsample_jit = jax.jit(upsample, static_argnums=(1,))
reps = np.full(3, 2)
print(upsample_jit(jnp.arange(3.0), reps))  # <-
