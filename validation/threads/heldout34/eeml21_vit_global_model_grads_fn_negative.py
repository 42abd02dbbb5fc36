# source: https://github.com/eemlcommunity/PracticalSessions2021/blob/c8506f8a852fcf8f093f0849bc1f2b0f8363e106/vision/vision_transformers.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: grads_fn = jax.jit(jax.grad(loss)) where loss reads the notebook-global model (the notebook itself warns this goes stale if model is reassigned), but in the notebook's flow model is not changed while grads_fn is used, so it compiles once and returns correct gradients.

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

# --- cell 26 ---
# Note how we compose the function transformations. `jax.jit()` doesn't change
# the output, but it will compile function when it's used for the first time
# (and every time it's re-used with different shapes) and make it a lot faster.
grads_fn = jax.jit(jax.grad(loss))  # (%time dropped)

# Beware that we don't specify `model` as an input parameter, so if we later
# change the `model` variable, we need to make sure that the function is
# recompiled (e.g. by re-executing the cell above), otherwise the compiled
# version will still be using the old definition of `model`.
# We will be fixing this issue further down under "2.3 - Training reloaded".

# --- cell 27 ---
grads = grads_fn(params, train_images, train_labels)  # (%time dropped)
# Gradients have same shape as parameters.
jax.tree_util.tree_map(jnp.shape, grads)  # changed: jax.tree_map is gone in jax 0.10

# --- cell 28 ---
def train(params, *, epochs):
  accuracies = [evaluate(params)]
  for epoch in range(epochs):  # changed: tqdm.trange
    grads = grads_fn(params, train_images, train_labels)
    # Manually implement gradient descent.
    params = jax.tree_util.tree_map(  # changed: jax.tree_multimap is gone
        lambda param, grad: param - 0.01 * grad,
        params, grads
    )
    accuracies.append(evaluate(params))
  return params  # (plt.plot(accuracies) dropped)

trained_params = train(params, epochs=5)  # scaffolding: epochs=100 in the notebook
_report({"jit(loss)"}, 6)  # scaffolding
