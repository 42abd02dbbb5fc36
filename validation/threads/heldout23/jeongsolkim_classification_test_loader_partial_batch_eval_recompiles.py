# source: https://github.com/jeongsol-kim/jax_practice/blob/67bed8aa3ef06a508352c6d30f1ffe681a901487/Classification/classification_mnist.py
# expect: shape-churn at line 87
# runtime: COMPILES 2 CALLS 2
# why: the test DataLoader keeps the partial last batch (10000 is not a multiple of 32), so each evaluation compiles the jitted eval_step a second time for it.
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

import os
from typing import Sequence
import numpy as np
import jax
import jax.numpy as jnp
import jax.random as random
import flax.linen as nn
from flax.training.train_state import TrainState
import optax
import numpy as _np  # scaffolding


class FlattenAndCast(object):  # data/utils.py of the same commit
    def __call__(self, pic):
        return _np.ravel(_np.array(pic, dtype=jnp.float32))

def numpy_collate(batch):  # data/utils.py of the same commit
    if isinstance(batch[0], _np.ndarray):
        return _np.stack(batch)
    elif isinstance(batch[0], (tuple,list)):
        transposed = zip(*batch)
        return [numpy_collate(samples) for samples in transposed]
    else:
        return _np.array(batch)


class MNIST:  # scaffolding: stand-in for torchvision.datasets.MNIST (torch/torchvision not installed)
    def __init__(self, root, train=True, download=False, transform=None):  # scaffolding
        r = _np.random.default_rng(0 if train else 1)  # scaffolding
        n = 16000 if train else 40  # scaffolding: 500 train batches of 32 (divisible, like MNIST's 60000) and 40 test images (partial last batch, like MNIST's 10000)
        self.images = r.integers(0, 255, (n, 28, 28)).astype(_np.uint8)  # scaffolding
        self.labels = r.integers(0, 10, (n,))  # scaffolding
        self.transform = transform  # scaffolding
    def __len__(self):  # scaffolding
        return len(self.labels)  # scaffolding
    def __getitem__(self, i):  # scaffolding
        return self.transform(self.images[i]), int(self.labels[i])  # scaffolding


def DataLoader(dataset, batch_size=1, shuffle=False, collate_fn=None, drop_last=False):  # scaffolding: torch DataLoader semantics
    class _L:  # scaffolding
        def __iter__(self):  # scaffolding
            n = len(dataset)  # scaffolding
            stop = n - n % batch_size if drop_last else n  # scaffolding
            for i in range(0, stop, batch_size):  # scaffolding
                yield collate_fn([dataset[j] for j in range(i, min(i + batch_size, n))])  # scaffolding
        def __len__(self):  # scaffolding
            return (len(dataset) + batch_size - 1) // batch_size  # scaffolding
    return _L()  # scaffolding


def get_flat_mnist_dataloader(batch_size):  # data/utils.py of the same commit
    # os.makedirs('data/', exist_ok=True)  # scaffolding: no data directory needed

    train_ds = MNIST('data/', train=True, download=True, transform=FlattenAndCast())
    test_ds = MNIST('data/', train=False, download=True, transform=FlattenAndCast())
    train_loader = DataLoader(train_ds, 
                              batch_size=batch_size,
                              shuffle=True,
                              collate_fn=numpy_collate,
                              )
    test_loader = DataLoader(test_ds, 
                             batch_size=batch_size,
                             shuffle=False,
                             collate_fn=numpy_collate,
                             )

    return train_loader, test_loader


class SummaryWriter:  # scaffolding: stand-in for torch.utils.tensorboard.SummaryWriter
    def __init__(self, log_dir=None):  # scaffolding
        pass  # scaffolding
    def add_scalar(self, *a):  # scaffolding
        pass  # scaffolding

get_mnist_dataloader = get_flat_mnist_dataloader  # scaffolding: was 'from data.utils import get_flat_mnist_dataloader as get_mnist_dataloader'


def to_np(a):
    return np.asarray(a)


class LinearModel(nn.Module):
    features: Sequence[int]

    def setup(self):
        self.layers = [nn.Dense(x) for x in self.features]

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = nn.relu(layer(x))
        x = self.layers[-1](x)
        return x


def compute_metrics(logits, labels):
    one_hot_label = jax.nn.one_hot(labels, num_classes=10)
    loss = jnp.mean(optax.softmax_cross_entropy(logits, one_hot_label))
    accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
    metrics = {
        'loss': loss,
        'accuracy': accuracy
    }
    return metrics


@jax.jit
def train_step(state, x, y):
    def loss_fn(params):
        # since there is no mutable variables (eg. batch_stats),
        # apply_fn returns only the output.
        logits = state.apply_fn(
            {'params':params}, x
        )
        one_hot_label = jax.nn.one_hot(y, num_classes=10)
        loss = optax.softmax_cross_entropy(logits, one_hot_label).mean()

        return loss, logits

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (_, logits), grads = grad_fn(state.params)
    state = state.apply_gradients(grads=grads)
    metrics = compute_metrics(logits, y)
    return state, metrics


@jax.jit
def eval_step(state, x, y):
    logits = state.apply_fn(
        {'params':state.params}, x
    )
    one_hot_label = jax.nn.one_hot(y, num_classes=10)
    metrics = compute_metrics(logits, y)
    return metrics


def train(num_epochs, train_loader, eval_loader, state, writer):
    for epoch in range(1, num_epochs+1):
        for i, (x,y) in enumerate(train_loader):
            state, metrics = train_step(state, x, y)

            if (i+1)%500 == 0:
                print(f'Epoch {epoch} | Iteration {i+1} |\
                     Loss {metrics["loss"]:.3f} | Accuracy {metrics["accuracy"]:.1f}')

                test_loss, test_acc = evaluation(eval_loader, state)

                num_steps = len(train_loader) * (epoch-1) + i
                writer.add_scalar('Loss/train', to_np(metrics["loss"]), num_steps)
                writer.add_scalar('Loss/test', to_np(test_loss), num_steps)
                writer.add_scalar('Accuracy/train', to_np(metrics['accuracy']), num_steps)
                writer.add_scalar('Accuracy/test', to_np(test_acc), num_steps)


def evaluation(data_loader, state):
    loss = []
    acc = []

    for x, y in data_loader:
        metrics = eval_step(state, x, y)
        loss.append(metrics["loss"])
        acc.append(metrics["accuracy"])

    mean_loss = jnp.array(loss).mean()
    mean_acc = jnp.array(acc).mean()

    return mean_loss, mean_acc


def main():
    os.environ['XLA_PYTHON_CLIENT_PREALLOCATE'] = 'false'

    rngs = random.PRNGKey(seed=123)
    model = LinearModel(features=[128, 64, 10])
    dummy_x = jnp.ones((1, 28*28))
    params = model.init(rngs, dummy_x)['params']

    tx = optax.adam(learning_rate=1e-4)
    state = TrainState.create(apply_fn=model.apply, params=params, tx=tx)

    train_loader, test_loader = get_mnist_dataloader(batch_size=32)

    save_dir = 'exp_results/MNIST/classification'
    # os.makedirs(save_dir, exist_ok=True)  # scaffolding: nothing is written
    writer = SummaryWriter(log_dir=save_dir)
    train(1, train_loader, test_loader, state, writer)  # scaffolding: 1 epoch instead of 5


if __name__ == '__main__':
    main()
    _report({"jit(eval_step)"}, 2)  # scaffolding: one evaluation (after iteration 500) over 2 test batches

