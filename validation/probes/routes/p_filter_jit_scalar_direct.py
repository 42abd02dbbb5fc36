# source: https://docs.kidger.site/equinox/api/transformations/ (filter_jit: Python scalars are static)
# expect: JIT403 at line 16
# runtime: COMPILES 3 CALLS 3
import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def sgd(params, grads, lr):
    return params - lr * grads


params = jnp.ones(3)
lr = 0.1
for step in range(3):
    params = sgd(params, params, lr)
    lr = lr * 0.5
print(params)
