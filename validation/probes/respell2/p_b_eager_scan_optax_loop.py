# source: validation/threads/heldout5/optax1171_backtracking_linesearch_update_in_python_loop.py (an update that runs a lax loop of local functions, called eagerly in a Python loop), a scan of a local body in a step function
# expect: JIT520 at line 12, 18
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


def inner_steps(w, lr):
    def body(w, _):
        return w - lr * 2 * w, None

    w, _ = jax.lax.scan(body, w, None, length=3)
    return w


w = jnp.ones(2)
for epoch in range(3):
    w = inner_steps(w, 0.1)  # <-
print(w)
