# source: https://github.com/keitaroskmt/jax-tutorial/blob/4ed10ce9c33772624213210ae5b5a767612ec376/mnist_mlp/train.py
# expect: shape-churn at line 58
# runtime: COMPILES 4 CALLS 10
# why: the DataLoaders keep the last partial batch (no drop_last), so the jitted train_step and eval_step each compile a second time for the remainder batch shape.
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
import sys, types  # scaffolding
import numpy as np  # scaffolding
import jax  # scaffolding


class DataLoader:  # scaffolding: stand-in for torch.utils.data.DataLoader (torch not installed), default drop_last=False
    def __init__(self, dataset, batch_size=1, shuffle=False, collate_fn=None):  # scaffolding
        self.dataset, self.batch_size, self.collate_fn = dataset, batch_size, collate_fn  # scaffolding

    def __iter__(self):  # scaffolding
        for i in range(0, len(self.dataset), self.batch_size):  # scaffolding: the last partial batch is yielded, as torch does
            yield self.collate_fn(self.dataset[i:i + self.batch_size])  # scaffolding


def default_collate(batch):  # scaffolding: stand-in for torch's default_collate
    return [np.stack([b[0] for b in batch]), np.array([b[1] for b in batch])]  # scaffolding


def get_datasets():  # scaffolding: random stand-in for torchvision MNIST (300 train / 150 test samples)
    r = np.random.default_rng(0)  # scaffolding
    mk = lambda n: [(r.normal(size=(1, 28, 28)).astype(np.float32), int(r.integers(10))) for _ in range(n)]  # scaffolding
    return mk(300), mk(150)  # scaffolding


# --- src/dataset/mnist.py (same repo): collate_fn and get_loaders as written ---
def collate_fn(batch: list):  # noqa: ANN201
    """Convert batch data to JAX arrays."""
    return jax.tree_util.tree_map(np.asarray, default_collate(batch))


def get_loaders(batch_size: int) -> tuple[DataLoader, DataLoader]:
    """Create DataLoader for MNIST train and test datasets."""
    train_dataset, test_dataset = get_datasets()
    train_loader = DataLoader(
        train_dataset,
        batch_size=batch_size,
        shuffle=True,
        collate_fn=collate_fn,
    )
    test_loader = DataLoader(
        test_dataset,
        batch_size=batch_size,
        shuffle=False,
        collate_fn=collate_fn,
    )
    return train_loader, test_loader

sys.modules["src"] = types.ModuleType("src")  # scaffolding
sys.modules["src.dataset"] = types.ModuleType("src.dataset")  # scaffolding
sys.modules["src.dataset.mnist"] = types.SimpleNamespace(get_loaders=get_loaders)  # scaffolding
# --- mnist_mlp/train.py as written ---
"""Training script for a simple MLP on the MNIST dataset using JAX."""

import logging
import time

import jax
import jax.numpy as jnp

from src.dataset.mnist import get_loaders

# Hyperparameters
batch_size = 128
num_epochs = 2  # scaffolding (was 10)
num_classes = 10
learning_rate = 0.001


# Model definition
def init_linear_params(
    in_size: int,
    out_size: int,
    key: jax.Array,
) -> tuple[jax.Array, jax.Array]:
    """Initialize weights and biases for a linear layer."""
    k1, _ = jax.random.split(key)
    weights = jax.random.normal(k1, (in_size, out_size)) * jnp.sqrt(2.0 / in_size)
    biases = jnp.zeros(shape=(out_size,))
    return weights, biases


def init_mlp_params(
    layer_sizes: list[int],
    key: jax.Array,
) -> list[tuple[jax.Array, jax.Array]]:
    """Initialize parameters for an MLP given layer sizes."""
    keys = jax.random.split(key, len(layer_sizes))
    return [
        init_linear_params(in_size, out_size, k)
        for in_size, out_size, k in zip(
            layer_sizes[:-1],
            layer_sizes[1:],
            keys,
            strict=False,
        )
    ]


def mlp_forward(params: list[tuple[jax.Array, jax.Array]], x: jax.Array) -> jax.Array:
    """Forward pass through the MLP."""
    x = x.reshape((x.shape[0], -1))  # Flatten input
    for i, (w, b) in enumerate(params):
        x = jnp.dot(x, w) + b
        if i < len(params) - 1:
            x = jax.nn.relu(x)
    return x


# Loss and accuracy functions
def cross_entropy_loss(logits: jax.Array, labels: jax.Array) -> jax.Array:
    """Compute the cross-entropy loss."""
    one_hot_labels = jax.nn.one_hot(labels, num_classes=num_classes)
    log_probs = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.sum(one_hot_labels * log_probs, axis=1))


def compute_accuracy(logits: jax.Array, labels: jax.Array) -> jax.Array:
    """Compute the accuracy."""
    predictions = jnp.argmax(logits, axis=1)
    return jnp.mean(predictions == labels)


# Training and evaluation step
@jax.jit
def train_step(
    params: list[tuple[jax.Array, jax.Array]],
    x: jax.Array,
    y: jax.Array,
) -> list[tuple[jax.Array, jax.Array]]:
    """Perform a single training step."""
    grads = jax.grad(lambda p, x, y: cross_entropy_loss(mlp_forward(p, x), y))(
        params,
        x,
        y,
    )
    return [
        (w - learning_rate * dw, b - learning_rate * db)
        for (w, b), (dw, db) in zip(params, grads, strict=False)
    ]


@jax.jit
def eval_step(
    params: list[tuple[jax.Array, jax.Array]],
    x: jax.Array,
    y: jax.Array,
) -> tuple[jax.Array, jax.Array]:
    """Evaluate the model on a batch."""
    logits = mlp_forward(params, x)
    loss = cross_entropy_loss(logits, y)
    accuracy = compute_accuracy(logits, y)
    return loss, accuracy


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    logger = logging.getLogger(__name__)

    train_loader, test_loader = get_loaders(batch_size)
    key = jax.random.key(0)
    key, subkey = jax.random.split(key)
    params = init_mlp_params([784, 512, 512, num_classes], subkey)

    for epoch in range(num_epochs):
        start_time = time.time()
        for data, target in train_loader:
            params = train_step(params, data, target)
        epoch_time = time.time() - start_time
        logger.info("Epoch %d completed in %.2f seconds", epoch + 1, epoch_time)

        # Evaluation
        test_loss = 0.0
        test_accuracy = 0.0
        num_batches = 0
        for data, labels in test_loader:
            loss, accuracy = eval_step(params, data, labels)
            test_loss += loss
            test_accuracy += accuracy
            num_batches += 1
        test_loss /= num_batches
        test_accuracy /= num_batches
        logger.info(
            "Epoch %d, Test Loss: %.4f, Test Accuracy: %.2f%%",
            epoch + 1,
            test_loss,
            test_accuracy * 100,
        )
    _report({"jit(train_step)", "jit(eval_step)"}, 10)  # scaffolding
