# source: https://github.com/rastringer/jax_notebooks/blob/75c712534aad9ed90dba00ecb03f51d9900c3736/exercise1_jax_mnist_solution.ipynb
# expect: shape-churn at line 134
# runtime: COMPILES 2 CALLS 16
# why: The workshop solution jits update and feeds it batches from data_stream, whose num_batches = num_complete_batches + bool(leftover) makes the last batch of every epoch shorter, so update compiles a second time for the ragged shape.

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
# Copyright 2018 The JAX Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     https://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""A basic MNIST example using Numpy and JAX.

The primary aim here is simplicity and minimal dependencies.
"""


import time

import numpy.random as npr

from jax import jit, grad
from jax.scipy.special import logsumexp
import jax.numpy as jnp
# from examples import datasets  # scaffolding: the notebook's first cell defines mnist() instead; a stand-in follows
from jax import random  # scaffolding: the cell uses random without importing it
import numpy as np  # scaffolding

def mnist():  # scaffolding: random data with MNIST's layout (1000 examples instead of 60000, so the last batch is ragged the same way)
  rs = np.random.RandomState(0)
  imgs = rs.rand(1000, 784).astype(np.float32)
  lbls = np.eye(10, dtype=np.float32)[rs.randint(0, 10, 1000)]
  return imgs, lbls, imgs[:200], lbls[:200]

def init_random_params(scale, layer_sizes):
    # Solution
    key = random.PRNGKey(0)
    # Split the PRNGKey into two new keys
    key1, key2 = random.split(key, 2)
    params = [(scale * random.normal(key1, (m, n)), scale * random.normal(key2, (n,)))
              for m, n in zip(layer_sizes[:-1], layer_sizes[1:])]
    return params


def predict(params, inputs):
  activations = inputs
  for w, b in params[:-1]:
    outputs = jnp.dot(activations, w) + b
    activations = jnp.tanh(outputs)

  final_w, final_b = params[-1]
  logits = jnp.dot(activations, final_w) + final_b
  return logits - logsumexp(logits, axis=1, keepdims=True)

def loss(params, batch):
  inputs, targets = batch
  preds = predict(params, inputs)
  return -jnp.mean(jnp.sum(preds * targets, axis=1))

def accuracy(params, batch):
  inputs, targets = batch
  target_class = jnp.argmax(targets, axis=1)
  predicted_class = jnp.argmax(predict(params, inputs), axis=1)
  return jnp.mean(predicted_class == target_class)


if __name__ == "__main__":
  layer_sizes = [784, 64, 64, 10]  # scaffolding: the notebook uses [784, 1024, 1024, 10]
  param_scale = 0.1
  step_size = 0.001
  num_epochs = 2  # scaffolding: the notebook trains 10 epochs
  batch_size = 128

  train_images, train_labels, test_images, test_labels = mnist()
  num_train = train_images.shape[0]
  num_complete_batches, leftover = divmod(num_train, batch_size)
  num_batches = num_complete_batches + bool(leftover)

  def data_stream():
    rng = npr.RandomState(0)
    while True:
      perm = rng.permutation(num_train)
      for i in range(num_batches):
        batch_idx = perm[i * batch_size:(i + 1) * batch_size]
        yield train_images[batch_idx], train_labels[batch_idx]
  batches = data_stream()

  # Solution
  # jit compiling the update function brings the most benefits;
  # it does the heavy lifting for the training loop and runs
  # many times
  @jit
  def update(params, batch):
    # Solution
    grads = grad(loss)(params, batch)
    return [(w - step_size * dw, b - step_size * db)
            for (w, b), (dw, db) in zip(params, grads)]

  params = init_random_params(param_scale, layer_sizes)
  for epoch in range(num_epochs):
    start_time = time.time()
    for _ in range(num_batches):
      params = update(params, next(batches))
    epoch_time = time.time() - start_time

    train_acc = accuracy(params, (train_images, train_labels))
    test_acc = accuracy(params, (test_images, test_labels))
    print(f"Epoch {epoch} in {epoch_time:0.2f} sec")
    print(f"Training set accuracy {train_acc}")
    print(f"Test set accuracy {test_acc}")
  _report({"jit(update)"}, num_epochs * num_batches)  # scaffolding
