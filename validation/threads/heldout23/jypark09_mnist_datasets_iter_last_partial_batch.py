# source: https://github.com/JYPark09/jax-study/blob/881b5aeeefcc9b7630a81c9efaf843eff5591dc1/mnist/main.py
# expect: shape-churn at line 100
# runtime: COMPILES 2 CALLS 16
# why: ds.iter(batch_size=128) keeps the partial last batch, so the jitted apply_model sees a second batch shape each epoch and compiles twice.
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

import jax
import jax.numpy as jnp

import flax.linen as nn
from flax.training import train_state
import optax

import numpy as np

import numpy as _np  # scaffolding


class _Split:  # scaffolding: stand-in for a Hugging Face datasets split with_format("jax") (datasets not installed)
    def __init__(self, n):  # scaffolding
        r = _np.random.default_rng(0)  # scaffolding
        self.image = jnp.asarray(r.integers(0, 255, (n, 28, 28)), dtype=jnp.uint8)  # scaffolding
        self.label = jnp.asarray(r.integers(0, 10, (n,)))  # scaffolding
    def shuffle(self):  # scaffolding
        return self  # scaffolding
    def iter(self, batch_size, drop_last_batch=False):  # scaffolding: the datasets default keeps the partial last batch
        n = self.label.shape[0]  # scaffolding
        for i in range(0, n, batch_size):  # scaffolding
            if drop_last_batch and i + batch_size > n:  # scaffolding
                return  # scaffolding
            yield {"image": self.image[i:i + batch_size], "label": self.label[i:i + batch_size]}  # scaffolding


def load_dataset(name):  # scaffolding
    return {"train": _Split(1000)}  # scaffolding: 1000 images instead of MNIST's 60000 (both leave a partial last batch of 128)


class Net(nn.Module):
    @nn.compact
    def __call__(self, x: jnp.ndarray) -> jnp.ndarray:
        x = x.astype(jnp.float32) / 255. - 0.5
        x = x.reshape((-1, 28 * 28))

        x = nn.Dense(128)(x)
        x = nn.silu(x)
        x = nn.Dense(10)(x)
        return x


@jax.jit
def apply_model(state, x, y):
    def loss_fn(params):
        logits = state.apply_fn({ "params": params }, x)
        one_hot = jax.nn.one_hot(y, 10)
        loss = jnp.mean(optax.softmax_cross_entropy(logits=logits, labels=one_hot))
        return loss, logits

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(state.params)
    accuracy = jnp.mean(jnp.argmax(logits, axis=-1) == y)
    return grads, loss, accuracy


@jax.jit
def update_model(state, grads):
    return state.apply_gradients(grads=grads)


def create_train_state(rng):
    net = Net()
    params = net.init(rng, jnp.ones([1, 28 * 28]))["params"]
    tx = optax.adamw(learning_rate=1e-3, weight_decay=1e-4)
    return train_state.TrainState.create(apply_fn=net.apply, params=params, tx=tx)


def train_epoch(state, ds, batch_size):
    losses = []
    accuracies = []

    ds = ds.shuffle()
    for batch in ds.iter(batch_size=batch_size):
        x, y = batch["image"], batch["label"]

        grad, loss, accuracy = apply_model(state, x, y)
        state = update_model(state, grad)

        losses.append(loss)
        accuracies.append(accuracy)

    loss = np.mean(losses)
    accuracy = np.mean(accuracies)

    return state, loss, accuracy


def main():
    rng = jax.random.PRNGKey(42)
    rng, init_rng = jax.random.split(rng)

    state = create_train_state(init_rng)

    ds = load_dataset("mnist")
    # ds = ds.with_format("jax")  # scaffolding: the stand-in already holds jax arrays

    for epoch in range(2):  # scaffolding: 10 in the repository
        state, loss, accuracy = train_epoch(state, ds["train"], batch_size=128)
        print(f"epoch: {epoch}, loss: {loss:.4f}, accuracy: {accuracy:.4f}")


if __name__ == "__main__":
    main()
    _report({"jit(apply_model)"}, 2 * 8)  # scaffolding: 2 epochs x 8 batches
