# source: look-alike of p_weak_type_loop: the state starts as a float32 array
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp
import numpy as np


def add(x):
    return x + np.float32(0.5)


add_fast = jax.jit(add)
state = jnp.float32(0.0)
for _ in range(3):
    state = add_fast(state)
print(state)
