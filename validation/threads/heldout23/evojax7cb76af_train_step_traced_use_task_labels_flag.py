# source: https://github.com/google/evojax/commit/7cb76af271d371dfde3cb4aaeccb71714d3caaac
# expect: trace-time-error at line 96
# runtime: ERROR TracerBoolConversionError
# why: use_task_labels=True is passed positionally to the jitted train_step, so it arrives as a traced bool and the Python conditional on it raises at trace time.

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


import logging
import numpy as np
from typing import Tuple

import optax
import jax
from jax import random
import jax.numpy as jnp
import flax.linen as nn  # scaffolding
from flax.training import train_state
from flax.core import FrozenDict

cnn_final_layer_name = "Dense_1"  # scaffolding: evojax.models stand-ins


class CNN(nn.Module):  # scaffolding: small stand-in for evojax.models.CNN
    dropout_rate: float = None

    @nn.compact
    def __call__(self, x, masks=None, task_labels=None):
        x = x.reshape((x.shape[0], -1))
        x = nn.relu(nn.Dense(16)(x))
        if task_labels is not None:
            x = x + task_labels[:, None].astype(x.dtype)
        x = nn.Dense(10)(x)
        if masks is not None:
            x = x * masks
        return x


def cross_entropy_loss(logits, labels):  # scaffolding: evojax.util stand-in
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


def compute_metrics(logits, labels):  # scaffolding: evojax.util stand-in
    return {"loss": cross_entropy_loss(logits, labels), "accuracy": jnp.mean(jnp.argmax(logits, -1) == labels)}


class DatasetUtilClass:  # scaffolding: evojax.datasets stand-in
    def __init__(self, split, dataset_holder):
        self.split = split
        self.dataset_holder = dataset_holder
        self.metrics_holder = {}


# evojax/mnist_cnn.py before the commit: get_batch_masks, train_step, eval_step, epoch_step
def get_batch_masks(state, task_labels, mask_params=None, l1_pruning_proportion=None):
    if mask_params is not None:
        linear_weights = state.params[cnn_final_layer_name]["kernel"]
        mask_size = linear_weights.shape[0]
        batch_masks = Mask(mask_size=mask_size).apply({'params': mask_params}, task_labels)
    elif l1_pruning_proportion:
        batch_masks = None
    else:
        batch_masks = None

    return batch_masks
@jax.jit
def train_step(state,
               batch,
               mask_params=None,
               use_task_labels=None,
               l1_pruning_proportion: float = None,
               l1_reg_lambda: float = None,
               dropout_rate: float = None,
               ):

    class_labels = batch['label'][:, 0]
    task_labels = batch['label'][:, 1] if use_task_labels else None

    batch_masks = get_batch_masks(state, task_labels, mask_params, l1_pruning_proportion)

    def loss_fn(params):
        output_logits = CNN(dropout_rate=dropout_rate).apply({'params': params},
                                                             batch['image'],
                                                             batch_masks,
                                                             task_labels)

        loss = cross_entropy_loss(logits=output_logits, labels=class_labels)

        if l1_reg_lambda:
            loss += l1_reg_lambda * jnp.sum(jnp.abs(params[cnn_final_layer_name]["kernel"]))

        return loss, output_logits

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (_, logits), grads = grad_fn(state.params)
    state = state.apply_gradients(grads=grads)
    metrics = compute_metrics(logits=logits, labels=class_labels)
    return state, metrics


@jax.jit
def eval_step(state: train_state.TrainState,
              batch: dict,
              mask_params=None,
              use_task_labels=None,
              l1_pruning_proportion: float = None,
              l1_reg_lambda: float = None,
              dropout_rate: float = None,
              ) -> Tuple[train_state.TrainState, dict]:

    params = state.params
    class_labels = batch['label'][:, 0]
    task_labels = batch['label'][:, 1] if use_task_labels else None

    batch_masks = get_batch_masks(state, task_labels, mask_params, l1_pruning_proportion)

    logits = CNN().apply({'params': params},
                         batch['image'],
                         batch_masks,
                         task_labels)

    return state, compute_metrics(logits=logits, labels=class_labels)



def epoch_step(test: bool,
               state: train_state.TrainState,
               dataset_class: DatasetUtilClass,
               batch_size: int,
               rng,
               mask_params: FrozenDict = None,
               use_task_labels: bool = False,
               l1_pruning_proportion: float = None,
               l1_reg_lambda: float = None,
               dropout_rate: float = None,
               ) -> Tuple[train_state.TrainState, DatasetUtilClass]:

    for dataset_name, dataset in dataset_class.dataset_holder.items():
        ds_size = dataset['image'].shape[0]
        steps_per_epoch = ds_size // batch_size

        if test:
            step_func = eval_step
        else:
            step_func = train_step

        perms = jax.random.permutation(rng, ds_size)
        perms = perms[:steps_per_epoch * batch_size]  # skip incomplete batch
        perms = perms.reshape((steps_per_epoch, batch_size))

        batch_metrics = []
        for perm in perms:
            batch = {k: v[perm, ...] for k, v in dataset.items()}
            state, metrics = step_func(state,
                                       batch,
                                       mask_params,
                                       use_task_labels,
                                       l1_pruning_proportion,
                                       l1_reg_lambda,
                                       dropout_rate)

            batch_metrics.append(metrics)

        batch_metrics_np = jax.device_get(batch_metrics)
        epoch_metrics_np = {
            k: np.mean([metrics[k] for metrics in batch_metrics_np])
            for k in batch_metrics_np[0]}

        # Save the metrics for that datas
        dataset_class.metrics_holder[dataset_name] = {'loss': epoch_metrics_np['loss'],
                                                      'accuracy': epoch_metrics_np['accuracy']}

    return state, dataset_class




def _make_state():  # scaffolding: create_train_state stand-in
    model = CNN()
    params = model.init(random.PRNGKey(0), jnp.ones((1, 8, 8, 1)))["params"]
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))


_rng = np.random.default_rng(0)  # scaffolding: two synthetic datasets of 16 images, labels (class, task)
_ds = {name: {"image": jnp.asarray(_rng.normal(size=(16, 8, 8, 1)), jnp.float32),
              "label": jnp.stack([jnp.arange(16) % 10, jnp.full((16,), t)], axis=1)}
       for t, name in enumerate(["mnist", "fashion"])}
state = _make_state()  # scaffolding
try:  # scaffolding
    for epoch in range(2):  # scaffolding
        state, train_class = epoch_step(False, state, DatasetUtilClass("train", _ds), 4, random.PRNGKey(epoch),
                                        use_task_labels=True)
        state, test_class = epoch_step(True, state, DatasetUtilClass("test", _ds), 4, random.PRNGKey(epoch),
                                       use_task_labels=True)
    print(train_class.metrics_holder["mnist"]["loss"] > 0)  # scaffolding
    _report({"jit(train_step)", "jit(eval_step)"}, 32)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
