# source: validation/threads/heldout6/jax837_growing_context_in_sampling_loop.py, look-alike: a fixed-size buffer written with .at[i].set and a mask of the filled positions
# expect: none
# runtime: COMPILES 1 CALLS 4
import jax
import jax.numpy as jnp

table = jnp.arange(32.0).reshape(8, 4)


@jax.jit
def logits(tokens, filled):
    return table @ (table[tokens] * filled[:, None]).sum(0)


def generate(first, n):
    tokens = jnp.zeros(n, dtype=jnp.int32).at[0].set(first)
    filled = jnp.zeros(n).at[0].set(1.0)
    i = 1
    while i < n:
        nxt = jnp.argmax(logits(tokens, filled)) % 8
        tokens = tokens.at[i].set(nxt)
        filled = filled.at[i].set(1.0)
        i += 1
    return tokens


print(generate(1, 5))
