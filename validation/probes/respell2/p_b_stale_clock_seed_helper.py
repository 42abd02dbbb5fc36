# source: validation/threads/heldout5/jax1141_prngkey_from_time_in_jit.py (a key seeded from the clock inside jit), time.time_ns in a helper, from time import
# expect: JIT601 at line 11
# runtime: STALE COMPILES 1 CALLS 2
from time import sleep, time_ns

import jax
import jax.numpy as jnp


def fresh_key():
    return jax.random.PRNGKey(time_ns() % 1000003)  # <-


@jax.jit
def jitter(x):
    return x + 0.01 * jax.random.normal(fresh_key(), x.shape)


x = jnp.zeros(2)
a = jitter(x)
sleep(0.01)
b = jitter(x)
print(bool((a == b).all()))
