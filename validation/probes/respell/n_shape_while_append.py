# source: look-alike of p_shape_while_append: the history padded to a fixed length with a mask
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def mean(values, mask):
    return jnp.sum(values * mask) / jnp.sum(mask)


history = []
while len(history) < 3:
    history.append(float(len(history)))
    padded = jnp.zeros(3).at[: len(history)].set(jnp.asarray(history))
    mask = jnp.arange(3) < len(history)
    print(mean(padded, mask))
