# source: https://github.com/google/evojax/pull/62
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: The commit's fix: epoch_step picks the task labels in Python and passes the array (or None) to the jitted steps, so train_step traces once and eight batches share one compile.

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
from typing import Tuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.core import FrozenDict
from flax.training import train_state

cnn_final_layer_name = "Dense_0"


class CNN(nn.Module):  # scaffolding: evojax.models.CNN stand-in (one dense layer)
    dropout_rate: float = None

    @nn.compact
    def __call__(self, x, masks=None, task_labels=None):
        x = x.reshape((x.shape[0], -1))
        return nn.Dense(10)(x)


class Mask(nn.Module):  # scaffolding: never used here (mask_params is None)
    mask_size: int

    @nn.compact
    def __call__(self, labels):
        return jnp.ones((labels.shape[0], self.mask_size))


def cross_entropy_loss(logits, labels):  # scaffolding: evojax.util
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


def compute_metrics(logits, labels):  # scaffolding: evojax.util
    return {"loss": cross_entropy_loss(logits, labels), "accuracy": jnp.mean(jnp.argmax(logits, -1) == labels)}


class DatasetUtilClass:  # scaffolding: evojax.datasets.DatasetUtilClass
    def __init__(self, dataset_holder):
        self.dataset_holder = dataset_holder
        self.metrics_holder = {}


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
               mask_params: FrozenDict = None,
               task_labels: jnp.ndarray = None,
               l1_pruning_proportion: float = None,
               l1_reg_lambda: float = None,
               dropout_rate: float = None,
               ):

    class_labels = batch['label'][:, 0]

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
              mask_params: FrozenDict = None,
              task_labels: jnp.ndarray = None,
              l1_pruning_proportion: float = None,
              l1_reg_lambda: float = None,
              dropout_rate: float = None,
              ) -> Tuple[train_state.TrainState, dict]:

    params = state.params
    class_labels = batch['label'][:, 0]
    # task_labels = batch['label'][:, 1] if use_task_labels else None

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
            task_labels = batch['label'][:, 1] if use_task_labels else None
            state, metrics = step_func(state,
                                       batch,
                                       mask_params,
                                       task_labels,
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


# scaffolding: one epoch over two small MNIST-like datasets (label column 1 is the task id)
rng = jax.random.PRNGKey(0)
model = CNN()
params = model.init(rng, jnp.zeros((1, 28, 28, 1)))["params"]
state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))
data = {}
for t, name in enumerate(("mnist", "fashion_mnist")):
    k1, k2 = jax.random.split(jax.random.PRNGKey(t + 1))
    data[name] = {"image": jax.random.uniform(k1, (64, 28, 28, 1)),
                  "label": jnp.stack([jax.random.randint(k2, (64,), 0, 10), jnp.full((64,), t)], axis=1)}
dataset_class = DatasetUtilClass(data)
calls = 0
try:
    state, dataset_class = epoch_step(False, state, dataset_class, batch_size=16, rng=rng, use_task_labels=True)
    calls = 2 * (64 // 16)
    _report({"jit(train_step)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
