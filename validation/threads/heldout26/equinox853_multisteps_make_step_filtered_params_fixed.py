# source: https://github.com/patrick-kidger/equinox/issues/853
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: only the array leaves of the model are given to optim.update (eqx.filter(model, eqx.is_array), as the maintainers advise), so MultiSteps traces and make_step compiles once for its 2 calls.
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")

import equinox as eqx  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import optax  # scaffolding
from jaxtyping import Array, Float, Int, PyTree  # scaffolding


class CNN(eqx.Module):  # scaffolding: the CNN of equinox's mnist.ipynb, which the reporter wrapped
    layers: list  # scaffolding

    def __init__(self, key):  # scaffolding
        key1, key2, key3, key4 = jax.random.split(key, 4)  # scaffolding
        self.layers = [  # scaffolding
            eqx.nn.Conv2d(1, 3, kernel_size=4, key=key1),  # scaffolding
            eqx.nn.MaxPool2d(kernel_size=2),  # scaffolding
            jax.nn.relu,  # scaffolding
            jnp.ravel,  # scaffolding
            eqx.nn.Linear(1728, 512, key=key2),  # scaffolding
            jax.nn.sigmoid,  # scaffolding
            eqx.nn.Linear(512, 64, key=key3),  # scaffolding
            jax.nn.relu,  # scaffolding
            eqx.nn.Linear(64, 10, key=key4),  # scaffolding
            jax.nn.log_softmax,  # scaffolding
        ]  # scaffolding

    def __call__(self, x):  # scaffolding
        for layer in self.layers:  # scaffolding
            x = layer(x)  # scaffolding
        return x  # scaffolding


def loss(model, x, y):  # scaffolding: mnist.ipynb's loss
    pred_y = jax.vmap(model)(x)  # scaffolding
    pred_y = jnp.take_along_axis(pred_y, jnp.expand_dims(y, 1), axis=1)  # scaffolding
    return -jnp.mean(pred_y)  # scaffolding


LEARNING_RATE = 3e-4  # scaffolding
optim = optax.MultiSteps(optax.adamw(LEARNING_RATE), every_k_schedule=4)  # scaffolding: the reporter's change to the example
model = CNN(jax.random.PRNGKey(0))  # scaffolding
opt_state = optim.init(eqx.filter(model, eqx.is_array))  # scaffolding: as in mnist.ipynb


@eqx.filter_jit
def make_step(
    model: CNN,
    opt_state: PyTree,
    x: Float[Array, "batch 1 28 28"],
    y: Int[Array, " batch"],
):
    loss_value, grads = eqx.filter_value_and_grad(loss)(model, x, y)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    model = eqx.apply_updates(model, updates)
    return model, opt_state, loss_value


try:  # scaffolding
    for step in range(2):  # scaffolding
        x = jnp.zeros((4, 1, 28, 28))  # scaffolding: a stand-in batch for the MNIST loader
        y = jnp.zeros((4,), dtype=jnp.int32)  # scaffolding
        model, opt_state, train_loss = make_step(model, opt_state, x, y)
    _report({"jit(make_step)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
