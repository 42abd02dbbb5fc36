# source: validation/threads/heldout6/jax5206_global_key_split_in_jit.py, look-alike: the helper takes the key and returns both halves, nothing global
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


def next_key(rng):
    rng, sub = jax.random.split(rng)
    return rng, sub


def dropout(x, rng):
    rng, sub = next_key(rng)
    keep = jax.random.bernoulli(sub, 0.5, x.shape)
    return jnp.where(keep, x, 0.0), rng


dropout_jit = jax.jit(dropout)
rng = jax.random.PRNGKey(1)
x = jnp.ones(4)
y, rng = dropout_jit(x, rng)
print(y)
y, rng = dropout_jit(x, rng)
print(y)
