# source: https://github.com/bhyun-kim/qvix/blob/c196157956a17cce7c968c5dbc9cbc8eba8bd2da/tools/train.py
# expect: shape-churn at line 163
# runtime: COMPILES 3 CALLS 8
# why: the training loop cycles a torch DataLoader built without drop_last (MNIST 60000 % 64 = 32 in the source config), so the eqx.filter_jit make_step sees a short last batch every epoch and compiles a second time.

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


# --- end harness ---
from copy import deepcopy
from typing import Any, Optional, Tuple

import equinox as eqx
import equinox.nn as nn
import jax
import jax.nn as jnn
import jax.numpy as jnp
import optax
import torch  # scaffolding
from jaxtyping import Array, PRNGKeyArray
from torch.utils.data import DataLoader, TensorDataset  # TensorDataset: scaffolding


# qvix/models/backbones/lenet.py (registry decorator cut)
class LeNet5(eqx.Module):
    features: nn.Sequential
    num_classes: int
    classifier: nn.Sequential

    def __init__(self, key: PRNGKeyArray, num_classes: int = -1):

        keys = jax.random.split(key, 2)

        self.num_classes = num_classes
        self.features = nn.Sequential([
            nn.Conv2d(1, 6, 5, key=keys[0]),
            nn.Lambda(jnn.relu),
            nn.MaxPool2d(2, 2),
            nn.Lambda(jnn.relu),
            nn.Conv2d(6, 16, 5, key=keys[1]),
            nn.Lambda(jnn.relu),
            nn.MaxPool2d(2, 2),
        ])

        if num_classes > 0:
            keys = jax.random.split(key, 3)
            self.classifier = nn.Sequential([
                nn.Linear(16 * 5 * 5, 120, key=keys[0]),
                nn.Lambda(jnn.relu),
                nn.Linear(120, 84, key=keys[1]),
                nn.Lambda(jnn.relu),
                nn.Linear(84, num_classes, key=keys[2])
            ])

    def __call__(self,
                 x: Array,
                 state: nn.State = None,
                 key: Optional[PRNGKeyArray] = None) -> Array:
        out = self.features(x)
        out = out.reshape(-1)
        out = self.classifier(out)
        return out, state


# qvix/builder/builder.py
class OptaxLossFunction(object):
    def __init__(self, loss_cfg: dict, reduce: str = "mean") -> None:
        self._loss_cfg = deepcopy(loss_cfg)
        self._reduce = reduce
        self._loss_name = self._loss_cfg.pop('name')
        self._loss = getattr(optax, self._loss_name)

    def __call__(self, *args) -> jnp.ndarray:
        losses = self._loss(*args, **self._loss_cfg)
        if self._reduce == "mean":
            return jnp.mean(losses)
        elif self._reduce == "sum":
            return jnp.sum(losses)


# qvix/utils/step.py
def calculate_step(model: eqx.Module, criterion: dict, key: PRNGKeyArray,
                   x: Array, y: Array, state: nn.State) -> Array:
    """Forward with optax.softmax_cross_entropy."""

    model = jax.vmap(model,
                     axis_name="batch",
                     in_axes=(0, None, 0),
                     out_axes=(0, None))

    logits, state = model(x, state, key)

    pred_y = jnp.argmax(logits, axis=1)
    acc = jnp.mean(y == pred_y)

    loss = criterion(logits, y)
    return loss, (acc, state)


@eqx.filter_jit
def make_step(model: eqx.Module, model_state: nn.State,
              opt_state: optax.OptState,
              optimizer: optax.GradientTransformation, key: PRNGKeyArray,
              criterion: optax, x: Array,
              y: Array) -> Tuple[eqx.Module, nn.State, optax.OptState, float]:
    keys = jax.random.split(key, num=x.shape[0])
    keys = jax.numpy.array(keys)

    (loss, (acc, model_state)), grads = eqx.filter_value_and_grad(
        calculate_step, has_aux=True)(model, criterion, keys, x, y,
                                      model_state)
    updates, opt_state = optimizer.update(grads, opt_state, model)
    model = eqx.apply_updates(model, updates)
    return model, model_state, opt_state, loss, acc


# tools/train.py main() (config parsing, logging, checkpointing and validation cut)
cfg = dict(iterations=8, seed=0)  # scaffolding: configs/lenet/lenet.py runs 10000 iterations
key = jax.random.PRNGKey(cfg['seed'])
model, model_state = eqx.nn.make_with_state(LeNet5)(key, num_classes=10)
criterion = OptaxLossFunction(dict(name="softmax_cross_entropy_with_integer_labels"))
g = torch.Generator().manual_seed(0)  # scaffolding: 200 random 32x32 images stand in for torchvision MNIST (60000)
trainloader = DataLoader(dataset=TensorDataset(torch.randn(200, 1, 32, 32, generator=g), torch.randint(0, 10, (200,), generator=g)),
                         batch_size=64, shuffle=True)  # lenet.py's train_loader: batch_size=64, shuffle=True, no drop_last
optimizer = optax.adam(learning_rate=3e-4)
opt_state = optimizer.init(eqx.filter(model, eqx.is_array))
device = jax.devices()[0]
start_iteration = 1


def infinite_trainloader():
    while True:
        yield from trainloader

for i, (x, y) in zip(range(start_iteration, cfg['iterations'] + 1),
                     infinite_trainloader()):

    x = x.numpy()
    y = y.numpy().astype(int)

    x, y = jax.device_put((x, y), device)

    model, model_state, opt_state, train_loss, train_acc = make_step(
        model, model_state, opt_state, optimizer, key, criterion, x, y)
_report({"jit(make_step)"}, cfg['iterations'])  # scaffolding
