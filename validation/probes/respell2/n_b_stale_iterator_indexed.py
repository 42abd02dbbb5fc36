# source: validation/threads/heldout5/openillumi_iterator_in_fori_loop_body.py, look-alike: the values an array indexed by the loop counter
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


def accumulate(weights):
    w = jnp.asarray(weights)

    def body(state):
        i, acc = state
        return i + 1, acc + w[i]

    return jax.lax.while_loop(lambda s: s[0] < len(weights), body, (0, 0.0))


print(accumulate([1.0, 2.0, 3.0]))
