# source: https://github.com/TugdualKerjan/mnist-jax/blob/04d50b37ee31d7fdaa91bd60188c0df4a9c230c0/model.py
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: MLP.__call__ is decorated with plain @jax.jit although self is passed to it; self is an equinox Module (a pytree of arrays), so jit traces it like any argument, and under vmap/grad in the unjitted make_step the jitted call compiles twice (forward and backward) and is reused for all 6 steps.
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


# ---- model.py ----  # scaffolding: file marker
import jax
import jax.random as jr
import equinox as eqx
import equinox.nn as nn


class MLP(eqx.Module):
    layers: list

    def __init__(self, hidden=(784, 512, 256, 64, 16, 10), key=None):
        self.layers = [
            nn.Linear(hidden[i], hidden[i + 1], key=k)
            for i, k in enumerate(jr.split(key, len(hidden) - 1))
        ]

    @jax.jit
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
            x = jax.nn.sigmoid(x)
        return x

# ---- train.py ----  # scaffolding: file marker
import numpy as np  # scaffolding: Hugging Face datasets is not installed; a stand-in below
import jax
import jax.random as jr
import jax.numpy as jnp
import equinox as eqx
import optax
# from model import MLP  (defined above)  # scaffolding: flattened


@eqx.filter_value_and_grad
def calc_loss(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((pred - y) ** 2)


def make_step(model, optimizer, opt_state, x, y):
    loss, grad = calc_loss(model, x, y)
    updates, opt_state = optimizer.update(grad, opt_state, model)
    model = eqx.apply_updates(model, updates)

    return model, opt_state, loss


seed = 1
epochs = 3  # scaffolding: 3 instead of 100
batch_size = 32

key = jr.PRNGKey(seed)

_rng = np.random.default_rng(0)  # scaffolding: 64 train / 16 test synthetic 28x28 images instead of ylecun/mnist
data = {  # scaffolding
    "train": {"image": jnp.asarray(_rng.integers(0, 256, (64, 28, 28))), "label": jnp.asarray(_rng.integers(0, 10, 64))},  # scaffolding
    "test": {"image": jnp.asarray(_rng.integers(0, 256, (16, 28, 28))), "label": jnp.asarray(_rng.integers(0, 10, 16))},  # scaffolding
}  # scaffolding

image_train_set, image_test_set = (
    jnp.reshape(data["train"]["image"] / 255, (-1, 784)),
    jnp.reshape(data["test"]["image"] / 255, (-1, 784)),
)
label_train_set, label_test_set = (
    jax.nn.one_hot(data["train"]["label"], num_classes=10, axis=-1),
    jax.nn.one_hot(data["test"]["label"], num_classes=10, axis=-1),
)

# print(type(train_set))

model = MLP(key=key)

optimizer = optax.adamw(5e-3)
opt_state = optimizer.init(model)

for i in range(epochs * image_train_set.shape[0] // batch_size):
    key, k = jr.split(key)
    permutation = jr.permutation(k, jnp.arange(0, image_train_set.shape[0]))

    x, y = (
        image_train_set[permutation],
        label_train_set[permutation],
    )

    model, opt_state, loss = make_step(model, optimizer, opt_state, x, y)

    print(loss)
_report({"jit(__call__)"}, 6)  # scaffolding: 6 make_step calls (epochs * 64 // 32)
