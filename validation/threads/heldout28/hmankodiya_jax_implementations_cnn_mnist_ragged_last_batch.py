# source: https://github.com/hmankodiya/jax-implementations/blob/36c41a6db4ff967ef2917fcbb0e132e9719188ca/flax/cnn_mnist/train.ipynb
# expect: shape-churn at line 204
# runtime: COMPILES 2 CALLS 4
# why: the repository's own DataLoader slices indices in steps of 64 and also yields the short last batch (60000 % 64 = 32 for MNIST), so the @nnx.jit train_step compiles twice, once for 64-image batches and once for the 32-image tail (2 compiles for 4 calls here).
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


import numpy as _np  # scaffolding
import torch as _torch  # scaffolding


class _MNISTStandIn(_torch.utils.data.Dataset):  # scaffolding: torchvision MNIST (train) needs a download; 96 random 28x28 digits instead of 60000 (96 % 64 = 32 like 60000 % 64)
    def __init__(self, transform):  # scaffolding
        rs = _np.random.RandomState(0)  # scaffolding
        self.images = rs.randint(0, 256, size=(96, 28, 28, 1)).astype(_np.uint8)  # scaffolding
        self.labels = rs.randint(0, 10, size=96)  # scaffolding
        self.transform = transform  # scaffolding

    def __len__(self):  # scaffolding
        return len(self.images)  # scaffolding

    def __getitem__(self, i):  # scaffolding
        return self.transform(self.images[i]), int(self.labels[i])  # scaffolding


# ---- flax/cnn_mnist/dataset.py ----
import random
import numpy as np
import torch
from torchvision import datasets, transforms
import jax
import jax.numpy as jnp


def load_mnist(split="train"):
    # Define transformation: normalize and convert to tensor
    transform = transforms.Compose(
        [
            transforms.ToTensor(),  # Converts to (C, H, W) with values in [0, 1]
        ]
    )

    # Load the dataset
    dataset = datasets.MNIST(
        root="./data", train=(split == "train"), download=True, transform=transform
    ) if False else _MNISTStandIn(transform)  # scaffolding: MNIST needs a download; a small stand-in Dataset (the MNIST call is kept but not evaluated)

    # Stack all data and targets into a single tensor
    data = torch.stack([img for img, _ in dataset])  # Shape: [N, 1, 28, 28]
    targets = torch.tensor([label for _, label in dataset])  # Shape: [N]

    return data, targets


class DataLoader:
    def __init__(
        self,
        data,
        targets=None,
        return_labels=False,
        n_device=None,
        batch_size=1,
        shuffle=False,
    ):
        self.data = data.numpy()
        self.targets = None
        if targets is not None:
            self.targets = targets.numpy()
        self.return_labels = return_labels

        self.batch_size = batch_size
        self.indices = list(range(len(data)))
        self.n_device = n_device

        self.shuffle = shuffle
        if self.shuffle:
            random.shuffle(self.indices)

    def transform(self, x, use_targets=False):
        if use_targets:
            if not self.return_labels:
                one_hot_targets = np.zeros((len(x), 10), dtype=np.float32)
                one_hot_targets[np.arange(len(x)), x] = 1.0
                return one_hot_targets
            return x

        # Convert [B, 1, 28, 28] → [B, 28, 28, 1] (PyTorch → JAX)
        x = np.transpose(x, (0, 2, 3, 1))
        return x.astype(np.float32)

    def collate(self):
        batch_indices = self.indices[
            self.current_index : self.current_index + self.batch_size
        ]
        self.current_index += self.batch_size

        batch_images = self.transform(self.data[batch_indices])
        if self.targets is not None:
            batch_targets = self.transform(
                self.targets[batch_indices], use_targets=True
            )

        batch = (jnp.array(batch_images),)
        if self.targets is not None:
            batch += (jnp.array(batch_targets),)

        return batch

    def __iter__(self):
        self.current_index = 0
        return self

    def __next__(self):
        if self.current_index >= len(self.indices):
            raise StopIteration
        return self.collate()

    def __len__(self):
        return len(self.data)


# ---- flax/cnn_mnist/cnn_mnist.py ----
from tqdm import tqdm

import optax
import jax
import jax.numpy as jnp
from flax import nnx  # The Flax NNX API.
from functools import partial


class Classifier(nnx.Module):
    """A simple CNN model."""

    def __init__(self, *, rngs: nnx.Rngs):
        self.conv1 = nnx.Conv(1, 32, kernel_size=(3, 3), rngs=rngs)
        self.conv2 = nnx.Conv(32, 64, kernel_size=(3, 3), rngs=rngs)
        self.avg_pool = partial(nnx.avg_pool, window_shape=(2, 2), strides=(2, 2))
        self.linear1 = nnx.Linear(3136, 256, rngs=rngs)
        self.linear2 = nnx.Linear(256, 10, rngs=rngs)

    def __call__(self, x):
        x = self.avg_pool(nnx.relu(self.conv1(x)))
        x = self.avg_pool(nnx.relu(self.conv2(x)))
        x = x.reshape(x.shape[0], -1)  # flatten
        x = nnx.relu(self.linear1(x))
        x = self.linear2(x)
        return x


def compute_loss(model, batch):
    x, y = batch
    logits = model(x)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    return loss


@nnx.jit
def train_step(model, optimizer, batch):
    loss_fn = lambda m: compute_loss(m, batch)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(grads)
    return loss


@nnx.jit
def eval_step(model, batch):
    x, y = batch
    logits = model(x)
    predictions = jnp.argmax(logits, axis=-1)
    accuracy = jnp.mean(predictions == y)
    return accuracy


def train(model, dataloader, epochs=5, lr=1e-3):
    optimizer_def = optax.adam(lr)
    optimizer = nnx.ModelAndOptimizer(model, optimizer_def)  # scaffolding: nnx.Optimizer(model, tx) became nnx.ModelAndOptimizer in flax 0.11+ (same update(grads) API)
    losses = []

    for epoch in range(epochs):
        running_loss = 0.0
        num_batches = 0

        for batch in tqdm(dataloader, desc=f"Epoch {epoch+1}", total=64):
            loss = train_step(model, optimizer, batch)
            running_loss += loss.item()
            num_batches += 1

        avg_loss = running_loss / num_batches
        losses.append(avg_loss)
        print(f"Epoch {epoch+1} | Loss: {avg_loss:.4f}")

    return losses


# ---- flax/cnn_mnist/train.ipynb ----
# cell 0
import jax
import jax.numpy as jnp
from flax import nnx

# from dataset import load_mnist, DataLoader  # scaffolding: inlined above
# from cnn_mnist import Classifier, train  # where CNN is defined  # scaffolding: inlined above

# Initialize model using dummy input
rng = rngs = nnx.Rngs(0)
model = Classifier(rngs=rng)
# cell 1
nnx.display(model)
# cell 2
data, targets = load_mnist(split="train")

# Create the dataloader
dataloader = DataLoader(
    data=data, targets=targets, return_labels=True, batch_size=64, shuffle=True
)
# cell 3
# loss_curve = train(model, dataloader, epochs=10, lr=1e-3)
loss_curve = train(model, dataloader, epochs=2, lr=1e-3)  # scaffolding: 2 epochs instead of 10

_report({"jit(train_step)"}, 2 * 2)  # scaffolding: 2 epochs x 2 batches (64 and 32)
