# source: https://github.com/vvvm23/learn-jax/blob/c76763a8515f44164668a90a690badf80d5c4ec2/cnn.py
# expect: shape-churn at line 70
# runtime: COMPILES 4 CALLS 12
# why: the torch DataLoaders keep the partial last batch (no drop_last), so both jitted train_step and eval_step see a second batch shape and compile twice each.
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

import optax
import flax.linen as nn
from flax.training.train_state import TrainState

import types  # scaffolding
import numpy as _np  # scaffolding


class _CIFAR10:  # scaffolding: stand-in for torchvision.datasets.CIFAR10 (torch/torchvision not installed)
    def __init__(self, root, download=True, train=True, transform=None):  # scaffolding
        n = 200 if train else 100  # scaffolding: 200/100 images instead of 50000/10000 (all leave a partial last batch of 64)
        r = _np.random.default_rng(0)  # scaffolding
        self.x = r.normal(size=(n, 3, 32, 32)).astype(_np.float32)  # scaffolding
        self.y = r.integers(0, 10, (n,))  # scaffolding


def _DataLoader(ds, batch_size=1, shuffle=False, num_workers=0, drop_last=False):  # scaffolding: torch DataLoader semantics (drop_last=False keeps the partial batch)
    class _L:  # scaffolding
        def __iter__(self):  # scaffolding
            n = len(ds.y)  # scaffolding
            stop = n - n % batch_size if drop_last else n  # scaffolding
            for i in range(0, stop, batch_size):  # scaffolding
                yield ds.x[i:i + batch_size], ds.y[i:i + batch_size]  # scaffolding
        def __len__(self):  # scaffolding
            return (len(ds.y) + (0 if drop_last else batch_size - 1)) // batch_size  # scaffolding
    return _L()  # scaffolding


torch = types.SimpleNamespace(utils=types.SimpleNamespace(data=types.SimpleNamespace(DataLoader=_DataLoader)))  # scaffolding
datasets = types.SimpleNamespace(CIFAR10=_CIFAR10)  # scaffolding
transforms = types.SimpleNamespace(Compose=lambda t: None, ToTensor=lambda: None, Normalize=lambda m, s: None)  # scaffolding

import numpy as np
from typing import Sequence

batch_size = 64
nb_epochs = 2  # scaffolding: 20 in the repository

image_shape = (32, 32, 3) # HxWxC (channel last format)
nb_classes = 10

train_loader = torch.utils.data.DataLoader(datasets.CIFAR10('data', download=True, train=True, 
    transform=transforms.Compose([
        transforms.ToTensor(),
        transforms.Normalize((0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616))
    ])), batch_size=batch_size, shuffle=True, num_workers=4)

test_loader = torch.utils.data.DataLoader(datasets.CIFAR10('data', download=True, train=False, 
    transform=transforms.Compose([
        transforms.ToTensor(),
        transforms.Normalize((0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616))
    ])), batch_size=batch_size, shuffle=True, num_workers=4)

# simple CNN with relu activations
class CNN(nn.Module):
    conv_features: Sequence[int]
    mlp_features: Sequence[int]

    @nn.compact
    def __call__(self, x):
        for feat in self.conv_features:
            x = nn.Conv(feat, kernel_size = (3, 3))(x)
            x = nn.max_pool(x, window_shape = (2, 2))
            x = nn.relu(x)

        x = x.reshape((x.shape[0], -1))
        for feat in self.mlp_features[:-1]:
            x = nn.relu(nn.Dense(feat)(x))
        x = nn.Dense(self.mlp_features[-1])(x)
        return x
net = CNN([16, 32, 64, 128], [256, nb_classes])

# define loss function (just BCE)
def loss(params: optax.Params, batch: jnp.ndarray, labels: jnp.ndarray) -> jnp.ndarray:
    logits = net.apply(params, batch)
    loss_val = optax.sigmoid_binary_cross_entropy(logits, labels).sum(axis=-1)
    return loss_val.mean(), (logits.argmax(axis=-1) == labels.argmax(axis=-1)).sum(axis=-1) / batch_size

def fit(params: optax.Params, opt: optax.GradientTransformation) -> optax.Params:
    # bundle together everything in the `TrainState class`
    state = TrainState.create(
        apply_fn=net.apply,
        params=params,
        tx=opt,
    )

    # jit compile the step function
    @jax.jit
    def train_step(state, batch, labels):
        batch = jnp.transpose(batch, axes=(0, 2, 3, 1))
        labels = jax.nn.one_hot(labels, nb_classes)
        (loss_val, accuracy), grads = jax.value_and_grad(loss, has_aux=True)(state.params, batch, labels) # return accuracy as aux
        state = state.apply_gradients(grads=grads) # apply gradients to training state (calls other things internally)
        return state, loss_val, accuracy

    @jax.jit
    def eval_step(params, batch, labels):
        batch = jnp.transpose(batch, axes=(0, 2, 3, 1))
        labels = jax.nn.one_hot(labels, nb_classes)
        loss_val, accuracy = loss(params, batch, labels)
        return loss_val, accuracy
    
    for i in range(nb_epochs):
        train_loss, train_accuracy = 0.0, 0.0
        for batch, labels in train_loader:
            batch, labels = jnp.array(batch), jnp.array(labels)
            state, loss_val, accuracy = train_step(state, batch, labels)

            train_loss += loss_val
            train_accuracy += accuracy

        test_loss, test_accuracy = 0.0, 0.0
        for batch, labels in test_loader:
            batch, labels = jnp.array(batch), jnp.array(labels)
            loss_val, accuracy = eval_step(state.params, batch, labels)

            test_loss += loss_val
            test_accuracy += accuracy

        train_loss /= len(train_loader)
        train_accuracy /= len(train_loader)

        test_loss /= len(test_loader)
        test_accuracy /= len(test_loader)

        print(f"epoch {i+1}/{nb_epochs} | train: {train_loss:.5f} [{train_accuracy*100:.2f}%] | eval: {test_loss:.5f} [{test_accuracy*100:.2f}%]")

    return params

params = net.init(jax.random.PRNGKey(0), jnp.ones((1, *image_shape)).astype(jnp.float32))
opt = optax.chain(
    optax.clip(1.0),
    optax.adamw(learning_rate=1e-4)
)
params = fit(params, opt)
_report({"jit(train_step)", "jit(eval_step)"}, 2 * (4 + 2))  # scaffolding: 2 epochs x (4 train + 2 eval batches)
