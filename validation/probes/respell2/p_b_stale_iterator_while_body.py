# source: validation/threads/heldout5/openillumi_iterator_in_fori_loop_body.py, an iterator of a list in a while_loop body inside a function
# expect: JIT601 at line 13
# runtime: STALE COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


def accumulate(weights):
    it = iter(weights)

    def body(state):
        i, acc = state
        return i + 1, acc + next(it)  # <-

    return jax.lax.while_loop(lambda s: s[0] < len(weights), body, (0, 0.0))


print(accumulate([1.0, 2.0, 3.0]))
