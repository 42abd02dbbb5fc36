# source: validation/threads/heldout5/jax2095_jit_of_grad_rebuilt_per_call.py (jax.jit of a freshly transformed function made per call), jax.jit(jax.vmap(...)) made inside a helper called per batch
# expect: JIT105 at line 13
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


def score(w, x):
    return jnp.dot(w, x)


def batched_scores(w, xs):
    return jax.jit(jax.vmap(score, in_axes=(None, 0)))(w, xs)  # <-


w = jnp.ones(3)
for i in range(3):
    print(batched_scores(w, jnp.ones((4, 3)) * i))
