# source: https://github.com/jax-ml/jax/issues/1498
# expect: shape-churn at line 105
# runtime: COMPILES 2 CALLS 9
# why: data_stream ends every epoch with a 44-row batch (num_train % batch_size), so the jitted update sees two batch shapes and compiles twice (2 compiles for 9 calls).
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


import time
import itertools

import numpy.random as npr

import jax.numpy as np
from jax import jit, grad, random
from jax.example_libraries import optimizers
from jax.example_libraries import stax
from jax.example_libraries.stax import Dense, Relu, LogSoftmax
import numpy as onp  # scaffolding


class datasets:  # scaffolding: stand-in for examples/datasets.py (random data, 300 train / 100 test)
  @staticmethod  # scaffolding
  def mnist():  # scaffolding
    r = onp.random.RandomState(1)  # scaffolding
    def _part(n):  # scaffolding
      x = r.rand(n, 28 * 28).astype(onp.float32)  # scaffolding
      y = onp.eye(10, dtype=onp.float32)[r.randint(0, 10, n)]  # scaffolding
      return x, y  # scaffolding
    (a, b), (c, d) = _part(300), _part(100)  # scaffolding
    return a, b, c, d  # scaffolding


def loss(params, batch):
  inputs, targets = batch
  preds = predict(params, inputs)
  return -np.mean(preds * targets)

def accuracy(params, batch):
  inputs, targets = batch
  target_class = np.argmax(targets, axis=1)
  predicted_class = np.argmax(predict(params, inputs), axis=1)
  return np.mean(predicted_class == target_class)

init_random_params, predict = stax.serial(
    Dense(1024), Relu, Dense(1024), Relu, Dense(10), LogSoftmax)

if __name__ == "__main__":
  calls = 0  # scaffolding
  rng = random.PRNGKey(0)

  step_size = 0.001
  num_epochs = 3  # scaffolding: 10 in the example
  batch_size = 128
  momentum_mass = 0.9

  train_images, train_labels, test_images, test_labels = datasets.mnist()
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

  opt_init, opt_update, get_params = optimizers.momentum(step_size, mass=momentum_mass)

  @jit
  def update(i, opt_state, batch):
    params = get_params(opt_state)
    return opt_update(i, grad(loss)(params, batch), opt_state)

  _, init_params = init_random_params(rng, (-1, 28 * 28))
  opt_state = opt_init(init_params)
  itercount = itertools.count()

  print("\nStarting training...")
  for epoch in range(num_epochs):
    start_time = time.time()
    for _ in range(num_batches):
      opt_state = update(next(itercount), opt_state, next(batches))
      calls += 1  # scaffolding
    epoch_time = time.time() - start_time

    params = get_params(opt_state)
    train_acc = accuracy(params, (train_images, train_labels))
    test_acc = accuracy(params, (test_images, test_labels))
    print("Epoch {} in {:0.2f} sec".format(epoch, epoch_time))
    print("Training set accuracy {}".format(train_acc))
    print("Test set accuracy {}".format(test_acc))

  _report({"jit(update)"}, calls)  # scaffolding
