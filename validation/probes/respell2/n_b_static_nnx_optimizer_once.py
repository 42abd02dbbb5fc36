# source: fixtures/changing_statics/nnx_optimizer_fresh_transformation_per_epoch.py, look-alike: the optimizer built once before the epochs
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax.numpy as jnp
import optax
from flax import nnx


def make_optimizer(model, lr):
    return nnx.Optimizer(model, optax.sgd(lr), wrt=nnx.Param)


@nnx.jit
def train_step(model, optimizer, x):
    grads = nnx.grad(lambda m: jnp.mean(m(x) ** 2))(model)
    optimizer.update(model, grads)


def fit(model, x):
    optimizer = make_optimizer(model, 0.01)
    for epoch in range(3):
        train_step(model, optimizer, x)


fit(nnx.Linear(4, 1, rngs=nnx.Rngs(0)), jnp.ones((2, 4)))
