# source: validation/threads/heldout6/transformerspr17863_incomplete_last_eval_batch.py / heldout5 jax16084 (a last batch shorter than the others), batches sliced in a while loop over a length not divisible by the batch size
# expect: JIT504 at line 19
# expect: JIT501 at line 19
# runtime: COMPILES 2 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def evaluate(params, xb):
    return jnp.sum(xb @ params)


params = jnp.ones(2)
data = jnp.ones((10, 2))
batch_size = 4
start = 0
while start < data.shape[0]:
    print(evaluate(params, data[start:start + batch_size]))  # <-
    start += batch_size
