# source: look-alike of p_static_zip_sweep: the rate is the same float on every iteration
# expect: none
# runtime: COMPILES 1 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("lr", "wd"))
def sgd(w, g, lr, wd):
    return w - lr * (g + wd * w)


w = jnp.ones(2)
for lr, wd in zip([0.1, 0.1, 0.1], [1e-4, 1e-4, 1e-4]):
    w = sgd(w, jnp.ones(2), lr=lr, wd=wd)
print(w)
