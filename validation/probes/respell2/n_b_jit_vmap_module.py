# source: validation/threads/heldout5/jax2095_jit_of_grad_rebuilt_per_call.py, look-alike: jax.jit(jax.vmap(...)) built once at module level, the helper only calls it
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


def score(w, x):
    return jnp.dot(w, x)


_batched = jax.jit(jax.vmap(score, in_axes=(None, 0)))


def batched_scores(w, xs):
    return _batched(w, xs)


w = jnp.ones(3)
for i in range(3):
    print(batched_scores(w, jnp.ones((4, 3)) * i))
