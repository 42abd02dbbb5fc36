# source: fixtures/changing_statics/nnx_optimizer_fresh_transformation_per_epoch.py (an nnx.Optimizer with a new optax transformation each epoch passed to nnx.jit), built by a helper in fit()
# expect: JIT402 at line 22
# runtime: COMPILES 3 CALLS 3
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
    for epoch in range(3):
        optimizer = make_optimizer(model, 0.01)
        train_step(model, optimizer, x)  # <-


fit(nnx.Linear(4, 1, rngs=nnx.Rngs(0)), jnp.ones((2, 4)))
