# source: validation/threads/heldout6/jax5206_global_key_split_in_jit.py (a global key split and reassigned inside jit), the key a class attribute, jax.random as jr, decorator
# expect: JIT602 at line 14
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.random as jr


class RNG:
    key = jr.PRNGKey(0)


@jax.jit
def noise():
    RNG.key, sub = jr.split(RNG.key)  # <-
    return jr.normal(sub, (2,))


print(noise())
print(noise())
