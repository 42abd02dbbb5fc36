# source: validation/threads/heldout6/jax837_growing_context_in_sampling_loop.py, the jitted output concatenated onto the history fed back, jnp.concatenate with axis=0, the jit a call
# expect: JIT501 at line 15
# runtime: COMPILES 4 CALLS 4
import jax
import jax.numpy as np


def predict(history):
    return np.mean(history, axis=0, keepdims=True) + 1.0


predict_fn = jax.jit(predict)
history = np.zeros((1, 2))
for t in range(4):
    nxt = predict_fn(history)  # <-
    history = np.concatenate([history, nxt], axis=0)
print(history)
