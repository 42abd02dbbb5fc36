# source: https://github.com/google-research/jaxpruner/blob/f133ee50f31a03d0152b8b272edb534065152f5d/colabs/mnist_pruning.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 24
# why: In the same colab apply_model and update_model are decorated with @jax.jit once at module level and called on every step of every epoch with same-shaped batches and state, so each compiles once however many epochs run.
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
import dataclasses  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np
import optax
import flax.linen as nn
from flax.training import train_state


@dataclasses.dataclass
class MagnitudePruning:  # scaffolding: stand-in for a jaxpruner updater (a plain dataclass there too)
    sparsity: float = 0.5

    def pre_forward_update(self, params, opt_state):
        return params

    def post_gradient_update(self, params, opt_state):
        def prune(p):
            thr = jnp.quantile(jnp.abs(p), self.sparsity)
            return jnp.where(jnp.abs(p) >= thr, p, 0.0)
        return jax.tree_util.tree_map(prune, params)

    def wrap_optax(self, tx):
        return tx


class jaxpruner:  # scaffolding: namespace for the isinstance check in train_epoch
    SteMagnitudePruning = type("SteMagnitudePruning", (), {})
    SteRandomPruning = type("SteRandomPruning", (), {})


# %% cell 6
class CNN(nn.Module):
  """A simple CNN model."""

  @nn.compact
  def __call__(self, x):
    x = nn.Conv(features=32, kernel_size=(3, 3))(x)
    x = nn.relu(x)
    x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
    x = nn.Conv(features=64, kernel_size=(3, 3))(x)
    x = nn.relu(x)
    x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
    x = x.reshape((x.shape[0], -1))  # flatten
    x = nn.Dense(features=256)(x)
    x = nn.relu(x)
    x = nn.Dense(features=10)(x)
    return x


@jax.jit
def apply_model(state, images, labels):
  """Computes gradients, loss and accuracy for a single batch."""
  def loss_fn(params):
    logits = state.apply_fn({'params': params}, images)
    one_hot = jax.nn.one_hot(labels, 10)
    loss = jnp.mean(optax.softmax_cross_entropy(logits=logits, labels=one_hot))
    return loss, logits

  grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
  (loss, logits), grads = grad_fn(state.params)
  accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
  return grads, loss, accuracy


@jax.jit
def update_model(state, grads):
  updates, new_opt_state = state.tx.update(
      grads, state.opt_state, state.params)
  new_params = optax.apply_updates(state.params, updates)
  return state.replace(
      step=state.step + 1,
      params=new_params,
      opt_state=new_opt_state)


def train_epoch(state, train_ds, batch_size, rng, sparsity_updater):
  """Train for a single epoch."""
  train_ds_size = len(train_ds['image'])
  steps_per_epoch = train_ds_size // batch_size

  perms = jax.random.permutation(rng, len(train_ds['image']))
  perms = perms[:steps_per_epoch * batch_size]  # skip incomplete batch
  perms = perms.reshape((steps_per_epoch, batch_size))

  epoch_loss = []
  epoch_accuracy = []
  is_ste = isinstance(sparsity_updater, (jaxpruner.SteMagnitudePruning,
                                         jaxpruner.SteRandomPruning))
  pre_op = jax.jit(sparsity_updater.pre_forward_update)
  post_op = jax.jit(sparsity_updater.post_gradient_update)
  for i, perm in enumerate(perms):
    batch_images = train_ds['image'][perm, ...]
    batch_labels = train_ds['label'][perm, ...]
    # Following is only needed for STE.
    new_params = pre_op(state.params, state.opt_state)
    forward_state = state.replace(params=new_params)

    grads, loss, accuracy = apply_model(forward_state, batch_images,
                                        batch_labels)
    state = update_model(state, grads)
    post_params = post_op(state.params, state.opt_state)
    state = state.replace(params=post_params)
    epoch_loss.append(loss)
    epoch_accuracy.append(accuracy)
    # (jaxpruner.summarize_sparsity print removed: scaffolding)
  train_loss = np.mean(epoch_loss)
  train_accuracy = np.mean(epoch_accuracy)
  return state, train_loss, train_accuracy


# scaffolding: create_train_state / train_and_evaluate cut down, random data instead of MNIST
rng = jax.random.PRNGKey(0)
train_ds = {'image': jax.random.normal(rng, (256, 28, 28, 1)),
            'label': jax.random.randint(rng, (256,), 0, 10)}
cnn = CNN()
params = cnn.init(rng, jnp.ones([1, 28, 28, 1]))['params']
sparsity_updater = MagnitudePruning()
tx = sparsity_updater.wrap_optax(optax.sgd(0.1, 0.9))
state = train_state.TrainState.create(apply_fn=cnn.apply, params=params, tx=tx)
n_epochs = 3
for epoch in range(1, n_epochs + 1):
    rng, input_rng = jax.random.split(rng)
    state, train_loss, train_accuracy = train_epoch(state, train_ds, 64, input_rng, sparsity_updater)
    print(epoch, train_loss, train_accuracy)
_report({"jit(apply_model)", "jit(update_model)"}, 2 * n_epochs * 4)  # scaffolding
