# source: look-alike of p_stale_key_tuple_unpack: the key is an argument of the jitted function
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
from jax import random

key = random.key(0)


@jax.jit
def sample(key):
    return random.normal(key, ())


for _ in range(2):
    print(float(sample(key)))
    key, _unused = random.split(key)
