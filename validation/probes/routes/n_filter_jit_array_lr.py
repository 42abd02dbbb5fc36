# source: https://docs.kidger.site/equinox/api/transformations/ (filter_jit: Python scalars are static)
# expect: none
# runtime: COMPILES 1 CALLS 3
import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def sgd(params, grads, lr):
    return params - lr * grads


def schedule(step):
    return jnp.asarray(0.1 / (1 + step))


params = jnp.ones(3)
for step in range(3):
    params = sgd(params, params, schedule(step))
print(params)
