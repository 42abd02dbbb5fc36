# source: https://docs.kidger.site/equinox/api/transformations/ (filter_jit: Python scalars are static)
# expect: none
# runtime: COMPILES 1 CALLS 3
import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def sgd(params, grads, lr):
    return params - lr * grads


class Trainer:
    def __init__(self):
        self.lr = 0.1

    def fit(self, params):
        for _ in range(3):
            params = sgd(params, params, self.lr)
        return params


print(Trainer().fit(jnp.ones(3)))
