# source: ../shared/realworld/cases/jaxpr4312_global_prng_key_in_jit.py (a global PRNG key read in a jitted function), the key re-split by tuple unpack at module level
# expect: JIT601 at line 12
# runtime: STALE COMPILES 1 CALLS 2
import jax
from jax import random

key = random.key(0)


@jax.jit
def sample():
    return random.normal(key, ())  # <-


for _ in range(2):
    print(float(sample()))
    key, _unused = random.split(key)
