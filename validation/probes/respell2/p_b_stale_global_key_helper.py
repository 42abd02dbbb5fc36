# source: validation/threads/heldout6/jax5206_global_key_split_in_jit.py, `global rng` in a helper the jitted function calls, jax.jit as a call
# expect: JIT602 at line 13, 18
# expect: JIT601 at line 13, 18
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp

rng = jax.random.PRNGKey(1)


def next_key():
    global rng
    rng, sub = jax.random.split(rng)  # <-
    return sub


def dropout(x):
    keep = jax.random.bernoulli(next_key(), 0.5, x.shape)  # <-
    return jnp.where(keep, x, 0.0)


dropout_jit = jax.jit(dropout)
x = jnp.ones(4)
print(dropout_jit(x))
print(dropout_jit(x))
