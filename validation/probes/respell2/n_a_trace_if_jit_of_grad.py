# source: look-alike of p_a_trace_if_jit_of_grad: the margin bound as a Python float by functools.partial before the transformation
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp


def loss(w, margin):
    err = jnp.sum(w ** 2) - margin
    if margin > 0:
        return jnp.maximum(err, 0.0)
    return err


loss_and_grad = jax.jit(jax.value_and_grad(partial(loss, margin=0.5)))
w = jnp.ones(3)
value, g = loss_and_grad(w)
print(value, g)
