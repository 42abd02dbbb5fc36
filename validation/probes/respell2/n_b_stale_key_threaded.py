# source: validation/threads/heldout6/jax5206_global_key_split_in_jit.py, look-alike: the key passed in and the new key returned
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.random as jr


class RNG:
    key = jr.PRNGKey(0)


@jax.jit
def noise(key):
    key, sub = jr.split(key)
    return key, jr.normal(sub, (2,))


RNG.key, a = noise(RNG.key)
RNG.key, b = noise(RNG.key)
print(a, b)
