# source: https://github.com/matthias-wright/flaxmodels/blob/09bc77215032375d124e3f1eba828dd89c80a850/training/resnet/training.py
# expect: shape-churn at line 155; jit-in-loop-or-body at line 71
# runtime: COMPILES 6 CALLS 8
# why: The tf.data pipeline batches without drop_remainder and the divisibility guard only skips batches not divisible by the device count, so the ragged last batch reaches p_train_step and recompiles it; and sync_batch_stats builds a fresh pmap(lambda) in its body every epoch, recompiling the batch-stat sync each time.

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
import dataclasses
import functools
from typing import Any

import jax
import jax.numpy as jnp
import flax
import flax.jax_utils
import flax.linen as nn
import numpy as np
import optax
from flax.training import common_utils
from flax.training import train_state


def cross_entropy_loss(logits, labels):
    """
    Computes the cross entropy loss.
    """
    return -jnp.sum(common_utils.onehot(labels, num_classes=logits.shape[1]) * logits) / labels.shape[0]


def compute_metrics(logits, labels):
    """
    Computes the cross entropy loss and accuracy.
    """
    loss = cross_entropy_loss(logits, labels)
    accuracy = jnp.mean(jnp.argmax(logits, axis=-1) == labels)
    metrics = {'loss': loss, 'accuracy': accuracy}
    return metrics


class TrainState(train_state.TrainState):
    batch_stats: Any
    dynamic_scale: Any  # dynamic_scale_lib.DynamicScale in the repo (flax.optim is gone); None here
    epoch: int


def sync_batch_stats(state):
    """
    Sync the batch statistics across devices.
    """
    cross_replica_mean = jax.pmap(lambda x: jax.lax.pmean(x, 'x'), 'x')
    return state.replace(batch_stats=cross_replica_mean(state.batch_stats))


def train_step(state, batch):

    def loss_fn(params):
        logits, new_model_state = state.apply_fn({'params': params, 'batch_stats': state.batch_stats},
                                                 batch['image'],
                                                 mutable=['batch_stats'])
        loss = cross_entropy_loss(logits, batch['label'])
        return loss, (new_model_state, logits)

    dynamic_scale = state.dynamic_scale

    if dynamic_scale:
        raise NotImplementedError  # scaffolding: the float16 dynamic-scale branch is cut
    else:
        grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
        aux, grads = grad_fn(state.params)
        # Re-use same axis_name as in the call to `pmap(...train_step...)` below.
        grads = jax.lax.pmean(grads, axis_name='batch')
    new_model_state, logits = aux[1]
    metrics = compute_metrics(logits, batch['label'])

    new_state = state.apply_gradients(grads=grads, batch_stats=new_model_state['batch_stats'])

    return new_state, metrics


class _TinyResNet(nn.Module):  # scaffolding: stand-in for fm.ResNet18(output='log_softmax', ...)
    num_classes: int = 10  # scaffolding

    @nn.compact  # scaffolding
    def __call__(self, x, train=True):  # scaffolding
        x = nn.Conv(4, (3, 3))(x)  # scaffolding
        x = nn.BatchNorm(use_running_average=not train)(x)  # scaffolding
        return nn.log_softmax(nn.Dense(self.num_classes)(jnp.mean(x, axis=(1, 2))))  # scaffolding


def _as_numpy_iterator(n, batch):  # scaffolding: tf.data .batch(num_devices * batch_size) without drop_remainder
    for s in range(0, n, batch):  # scaffolding
        m = min(batch, n - s)  # scaffolding
        yield np.full((m, 8, 8, 3), 0.1, np.float32), np.arange(m) % 10  # scaffolding


num_devices = jax.device_count()
dtype = jnp.float32
batch_size = 4  # scaffolding: config.batch_size
model = _TinyResNet()  # scaffolding
variables = model.init(jax.random.PRNGKey(0), jnp.ones((1, 8, 8, 3), dtype=dtype))
params, batch_stats = variables['params'], variables['batch_stats']
tx = optax.adam(learning_rate=1e-3)  # scaffolding: cosine schedule cut

state = TrainState.create(apply_fn=model.apply,
                          params=params,
                          tx=tx,
                          batch_stats=batch_stats,
                          dynamic_scale=None,
                          epoch=0)

step = 0
state = flax.jax_utils.replicate(state)

p_train_step = jax.pmap(functools.partial(train_step), axis_name='batch')

calls = 0  # scaffolding
for epoch in range(0, 2):  # scaffolding: config.num_epochs
    accuracy = 0.0
    n = 0
    for image, label in _as_numpy_iterator(10, num_devices * batch_size):  # scaffolding: ds_train.as_numpy_iterator(), 10 images
        image = image.astype(dtype)
        label = label.astype(dtype)

        if image.shape[0] % num_devices != 0:
            # Batch size must be divisible by the number of devices
            continue

        # Reshape images from [num_devices * batch_size, height, width, img_channels]
        # to [num_devices, batch_size, height, width, img_channels].
        # The first dimension will be mapped across devices with jax.pmap.
        image = jnp.reshape(image, (num_devices, -1) + image.shape[1:])
        label = jnp.reshape(label, (num_devices, -1) + label.shape[1:])

        state, metrics = p_train_step(state, {'image': image, 'label': label})
        calls += 1  # scaffolding
        accuracy += metrics['accuracy']
        n += 1
        step += 1

    accuracy /= n

    # Sync batch stats
    state = sync_batch_stats(state)
    calls += 1  # scaffolding
    # (validation loop with p_eval_step cut)  # scaffolding

_report({"jit(_fun)"}, calls)  # scaffolding: both pmaps are reported as jit(_fun) on jax 0.10.2
