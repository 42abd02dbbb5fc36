# source: https://github.com/aweers/jax_tutorial/blob/0ffd81ac079379c4338a48c44a6e21b6960dcebe/mnist_flax.py
# expect: none
# runtime: COMPILES 3 CALLS 5
# why: a learning-rate/batch-size sweep: each config builds a new TrainState (its optax tx is a static field) and may change the batch size, so jit(train_step) compiles once per config and is then reused for every full batch of that config (3 compiles for 5 calls over 3 configs).
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
#https://flax.readthedocs.io/en/v0.5.3/notebooks/annotated_mnist.html

import jax
import jax.numpy as jnp

from flax import linen as nn
from flax.training import train_state

import numpy as np
import optax
# import tensorflow_datasets as tfds  # scaffolding: tfds is not installed and MNIST needs a download; stand-in below

class CNN(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Conv(features=32, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = nn.Conv(features=64, kernel_size=(3, 3))(x)
        x = nn.relu(x)
        x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
        x = x.reshape((x.shape[0], -1))
        x = nn.Dense(features=256)(x)
        x = nn.relu(x)
        x = nn.Dense(features=10)(x)
        return x

def cross_entropy_loss(*, logits, labels):
    labels_onehot = jax.nn.one_hot(labels, num_classes=10)
    return optax.softmax_cross_entropy(logits=logits, labels=labels_onehot).mean()

def compute_metrics(*, logits, labels):
    loss = cross_entropy_loss(logits=logits, labels=labels)
    accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
    metrics = {
        'loss': loss,
        'accuracy': accuracy,
    }
    return metrics

def get_datasets():
    rng = np.random.default_rng(0)  # scaffolding: stand-in for tfds 'mnist' (batch_size=-1 numpy dicts), 64 train / 64 test images
    train_ds = {'image': rng.integers(0, 256, (64, 28, 28, 1)).astype(np.uint8), 'label': rng.integers(0, 10, 64)}  # scaffolding
    test_ds = {'image': rng.integers(0, 256, (64, 28, 28, 1)).astype(np.uint8), 'label': rng.integers(0, 10, 64)}  # scaffolding
    train_ds['image'] = jnp.float32(train_ds['image']) / 255.
    test_ds['image'] = jnp.float32(test_ds['image']) / 255.
    return train_ds, test_ds

def create_train_state(rng, learning_rate, momentum):
    cnn = CNN()
    params = cnn.init(rng, jnp.ones([1, 28, 28, 1]))['params']
    tx = optax.sgd(learning_rate, momentum)
    return train_state.TrainState.create(
        apply_fn=cnn.apply, params=params, tx=tx
    )

@jax.jit
def train_step(state, batch):
    def loss_fn(params):
        logits = CNN().apply({'params': params}, batch['image'])
        loss = cross_entropy_loss(logits=logits, labels=batch['label'])
        return loss, logits
    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (_, logits), grads = grad_fn(state.params)
    state = state.apply_gradients(grads=grads)
    metrics = compute_metrics(logits=logits, labels=batch['label'])
    return state, metrics

@jax.jit
def eval_step(params, batch):
    logits = CNN().apply({'params': params}, batch['image'])
    return compute_metrics(logits=logits, labels=batch['label'])

def train_epoch(state, train_ds, batch_size, epoch, rng):
    train_ds_size = len(train_ds['image'])
    steps_per_epoch = train_ds_size // batch_size

    perms = jax.random.permutation(rng, train_ds_size)
    perms = perms[:steps_per_epoch * batch_size]
    perms = perms.reshape((steps_per_epoch, batch_size))
    batch_metrics = []
    for perm in perms:
        batch = {k: v[perm, ...] for k, v in train_ds.items()}
        state, metrics = train_step(state, batch)
        batch_metrics.append(metrics)
    
    batch_metrics_np = jax.device_get(batch_metrics)
    epoch_metrics_np = {
        k: np.mean([metrics[k] for metrics in batch_metrics_np])
        for k in batch_metrics_np[0]
    }

    return state

def eval_model(params, test_ds):
    metrics = eval_step(params, test_ds)
    metrics = jax.device_get(metrics)
    summary = jax.tree.map(lambda x: x.item(), metrics)  # scaffolding: jax.tree_map was removed from JAX; same function
    return summary['loss'], summary['accuracy']


train_ds, test_ds = get_datasets()
train_set_size, test_set_size = 5000, 5000
train_ds['image'] = train_ds['image'][:train_set_size]
train_ds['label'] = train_ds['label'][:train_set_size]
test_ds['image'] = test_ds['image'][:test_set_size]
test_ds['label'] = test_ds['label'][:test_set_size]


def train_and_eval(config):
    rng = jax.random.PRNGKey(config['seed'])
    rng, init_rng = jax.random.split(rng)


    state = create_train_state(init_rng, config['lr'], config['momentum'])

    for epoch in range(1, config['num_epochs']+1):
        rng, input_rng = jax.random.split(rng)
        state = train_epoch(state, train_ds, config['batch_size'], epoch, input_rng)
    test_loss, test_accuracy = eval_model(state.params, test_ds)
    return test_loss, test_accuracy

configs = [
    ("lr1", {
    'num_epochs': 1,  # scaffolding: 10 epochs cut to 1 in every config
    'batch_size': 32,
    'seed': 0,
    'lr': 1,
    'momentum': 0.9,
    }),
    ("lr0.1", {
    'num_epochs': 1,  # scaffolding
    'batch_size': 32,
    'seed': 0,
    'lr': 0.1,
    'momentum': 0.9,
    }),
    # ("lr0.01", {  # scaffolding: this config and lr0.1_b16 are left out to keep the run short
    # 'num_epochs': 10,  # scaffolding
    # 'batch_size': 32,  # scaffolding
    # 'seed': 0,  # scaffolding
    # 'lr': 0.01,  # scaffolding
    # 'momentum': 0.9,  # scaffolding
    # }),  # scaffolding
    ("lr0.1_b64", {
    'num_epochs': 1,  # scaffolding
    'batch_size': 64,
    'seed': 0,
    'lr': 0.1,
    'momentum': 0.9,
    }),
    # ("lr0.1_b16", {  # scaffolding: left out (see above)
    # 'num_epochs': 10,  # scaffolding
    # 'batch_size': 16,  # scaffolding
    # 'seed': 0,  # scaffolding
    # 'lr': 0.1,  # scaffolding
    # 'momentum': 0.9,  # scaffolding
    # }),  # scaffolding
]

for name, config in configs:
    loss, acc = train_and_eval(config)
    print(f"{name}: loss: {loss:.4f}, acc: {acc*100:.2f}%")
print({n: _COMPILED.count(n) for n in ("jit(train_step)", "jit(eval_step)")})  # scaffolding
_report({"jit(train_step)"}, 2 + 2 + 1)  # scaffolding: train_step calls = 64 // batch_size per config
