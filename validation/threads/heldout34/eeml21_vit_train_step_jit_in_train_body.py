# source: https://github.com/eemlcommunity/PracticalSessions2021/blob/c8506f8a852fcf8f093f0849bc1f2b0f8363e106/vision/vision_transformers.ipynb
# expect: jit-in-loop-or-body at line 148
# runtime: COMPILES 4 CALLS 4
# why: train() defines @jax.jit train_step inside its body, so every call of train() (the notebook invites re-running it with changed settings) compiles a fresh train_step even when nothing changed.

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
# --- cell 8 ---
from typing import Optional
import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax

# --- cells 10-11 (scaffolding: stand-in for tfds fashion_mnist, a small random set) ---
num_classes = 10  # scaffolding
num_train = 512  # scaffolding
_rng = np.random.default_rng(0)  # scaffolding
train_images = jnp.array(_rng.random((512, 28, 28, 1), dtype=np.float32))  # scaffolding
train_labels = jax.nn.one_hot(_rng.integers(0, 10, 512), num_classes)  # scaffolding
test_images = jnp.array(_rng.random((256, 28, 28, 1), dtype=np.float32))  # scaffolding
test_labels = jax.nn.one_hot(_rng.integers(0, 10, 256), num_classes)  # scaffolding

# --- cell 14 ---
# Defining a model is quite simple:
class Model(nn.Module):

  def setup(self):
    self.dense = nn.Dense(features=10)

  def __call__(self, x):
    batch_size = x.shape[0]
    # Flatten every image, only keeping batch dimension.
    x = x.reshape([batch_size, -1])
    x = self.dense(x)
    # We return normalized logits ("log_probs").
    return nn.log_softmax(x)

# --- cell 15 ---
model = Model()
model

# --- cell 16 ---
rng = jax.random.PRNGKey(0)
variables = model.init(rng, train_images[:1])

# --- cell 19 ---
params = variables['params']

# --- cell 24 ---
def evaluate(params):
  log_probs = model.apply({'params': params}, test_images)
  # Computes accuracy over entire test set in a single go.
  return (log_probs.argmax(axis=-1) == test_labels.argmax(axis=-1)).mean()

# Not surprisingly we perform rather badly withtout training:
evaluate(params)

# --- cell 25 ---
def loss(params, images, labels):
  log_probs = model.apply({'params': params}, images)
  return -jnp.mean(jnp.sum(labels * log_probs, axis=-1))

# Loss is a single scalar value.
loss(params, train_images, train_labels)

# (cells 26-47 cut: the first training loop and the ViT modules; the simple Model is used below)

# --- scaffolding: stand-ins for the tf.data pipeline used by train() ---
def pp(iter):  # scaffolding: the notebook's pp() converts tf batches
  for images, labels in iter:
    yield images, labels


class _DS:  # scaffolding: ds['train'].repeat().batch(b).shuffle(1000)
  def repeat(self):
    return self
  def batch(self, b):
    self.b = b
    return self
  def shuffle(self, n):
    def gen():
      while True:
        for i in range(0, num_train, self.b):
          yield train_images[i:i + self.b], train_labels[i:i + self.b]
    return gen()


ds = {'train': _DS()}  # scaffolding

# --- cell 48 ---
# Our simple training loop from above "1.2 - Train + evaluate" won't actually
# work for training a Vision Transformer. Check out the new improved training
# loop:

def train(model, params, *, ds, epochs, batch_size=128, lr=0.01):

  # Using a learning rate schedule with a linear warmup stabilizes training
  # a lot.
  steps = int(epochs * num_train / batch_size)
  warmup_steps = int(.1 * steps)
  lr_schedule = optax.join_schedules([
      optax.linear_schedule(0, lr, warmup_steps),
      optax.cosine_decay_schedule(lr, steps - warmup_steps),
  ], boundaries=[warmup_steps])

  tx = optax.chain(
      # Gradient clipping stabilizes training. Not really needed for these small
      # toy models, but useful trick for training larger Vision Transformers.
      optax.clip_by_global_norm(1.0),
      optax.adam(lr_schedule),
  )
  opt_state = tx.init(params)

  # We redefine `loss_fn()` to make sure that it always uses the correct model
  # (which is now explicitely provided as a function argument instead of using
  # a notebook global as before).
  def loss_fn(params, images, labels):
    logits = model.apply({'params': params}, images)
    return -jnp.mean(jnp.sum(labels * logits, axis=-1))

  # We want to JIT compile as large a part of our program as possible. Usually
  # the `train_step()` is perfectly suited for this, as it only involves pure
  # computation, and all data loading/logging is done outside of this function.
  @jax.jit
  def train_step(params, opt_state, images, labels):
    grads = jax.grad(loss_fn)(params, images, labels)
    updates, opt_state = tx.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state

  evaluate_ = jax.jit(evaluate)
  accuracies = [evaluate_(params)]
  # Most important change: Train on minibatches instead of using the entire
  # training dataset. This improves the performance a lot, while also allowing
  # for larger models.
  for step, (images, labels) in zip(
      range(steps),  # changed: tqdm.trange(steps)
      pp(ds.repeat().batch(batch_size).shuffle(1000)),
  ):
    params, opt_state = train_step(params, opt_state, images, labels)
    if (step + 1) % (steps // 10 or 1) == 0 or step + 1 == steps:  # changed: `or 1` (steps < 10 here)
      accuracies.append(evaluate_(params))

  return params  # (plotting of accuracies dropped)

# --- cell 50 exercise: re-run the training (scaffolding: 4 restarts of the same model) ---
for seed in range(4):  # scaffolding
  params = model.init(jax.random.PRNGKey(seed), train_images[:1])['params']  # scaffolding
  trained_params = train(model, params, ds=ds['train'], epochs=1)
_report({"jit(train_step)"}, 4)  # scaffolding: one train() call per restart, 4 steps each
