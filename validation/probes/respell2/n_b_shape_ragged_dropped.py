# source: validation/threads/heldout6/transformerspr17863_incomplete_last_eval_batch.py, look-alike: the partial last batch dropped (the loop stops at the last full batch)
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


@jax.jit
def evaluate(params, xb):
    return jnp.sum(xb @ params)


params = jnp.ones(2)
data = jnp.ones((10, 2))
batch_size = 4
start = 0
while start + batch_size <= data.shape[0]:
    print(evaluate(params, data[start:start + batch_size]))
    start += batch_size
