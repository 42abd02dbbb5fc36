# source: https://github.com/jayoza198/JAX/blob/7eb36ce322d348dde91f15c57c55504a1e562e05/JAX_2.ipynb
# expect: shape-churn at line 184
# runtime: COMPILES 2 CALLS 16
# why: get_train_batches() batches the training set with ds.batch(128), which keeps the short remainder batch, so the jitted update sees a second batch shape at the end of the first epoch and compiles again (60000 % 128 = 96 in the original; 1000 % 128 = 104 here).

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
import sys  # scaffolding
import types  # scaffolding
import numpy as _np  # scaffolding

# scaffolding: stand-ins for tensorflow / tensorflow_datasets (not installed). The fake dataset has
# 1000 training images instead of 60000; like tf.data's ds.batch(128) without drop_remainder, the
# last batch of each epoch is short (1000 % 128 = 104, as 60000 % 128 = 96).
_N_TRAIN, _N_TEST = 1000, 200  # scaffolding
_rs = _np.random.RandomState(0)  # scaffolding
_DATA = {s: {"image": _rs.randint(0, 255, (n, 28, 28, 1)).astype(_np.uint8), "label": _rs.randint(0, 10, n)}
         for s, n in (("train", _N_TRAIN), ("test", _N_TEST))}  # scaffolding


class _Batched:  # scaffolding: tf.data.Dataset.batch(...) semantics (keeps the remainder)
    def __init__(self, arrays, bs):
        self.arrays, self.bs = arrays, bs

    def prefetch(self, n):
        return self

    def __iter__(self):
        n = len(self.arrays[0])
        for i in range(0, n, self.bs):
            yield tuple(a[i:i + self.bs] for a in self.arrays)


class _Dataset:  # scaffolding
    def __init__(self, arrays):
        self.arrays = arrays

    def batch(self, bs):
        return _Batched(self.arrays, bs)


def _load(name, split=None, batch_size=None, as_supervised=False, data_dir=None, with_info=False):  # scaffolding
    if split is None:
        info = types.SimpleNamespace(features={"label": types.SimpleNamespace(num_classes=10),
                                               "image": types.SimpleNamespace(shape=(28, 28, 1))})
        return dict(_DATA), info
    return _Dataset((_DATA[split]["image"], _DATA[split]["label"]))


_tf = types.ModuleType("tensorflow")  # scaffolding
_tf.config = types.SimpleNamespace(set_visible_devices=lambda *a, **k: None)  # scaffolding
_tfds = types.ModuleType("tensorflow_datasets")  # scaffolding
_tfds.load, _tfds.as_numpy = _load, (lambda x: x)  # scaffolding
sys.modules["tensorflow"], sys.modules["tensorflow_datasets"] = _tf, _tfds  # scaffolding

import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random

# A helper function to randomly initialize weights and biases
# for a dense neural network layer
def random_layer_params(m, n, key, scale=1e-2):
  w_key, b_key = random.split(key)
  return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))

# Initialize all layers for a fully-connected neural network with sizes "sizes"
def init_network_params(sizes, key):
  keys = random.split(key, len(sizes))
  return [random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]

layer_sizes = [784, 512, 512, 10]
step_size = 0.01
num_epochs = 2  # scaffolding: cut from 10
batch_size = 128
n_targets = 10
params = init_network_params(layer_sizes, random.PRNGKey(0))

from jax.scipy.special import logsumexp

def relu(x):
  return jnp.maximum(0, x)

def predict(params, image):
  # per-example predictions
  activations = image
  for w, b in params[:-1]:
    outputs = jnp.dot(w, activations) + b
    activations = relu(outputs)
  
  final_w, final_b = params[-1]
  logits = jnp.dot(final_w, activations) + final_b
  return logits - logsumexp(logits)

# Make a batched version of the `predict` function
batched_predict = vmap(predict, in_axes=(None, 0))

def one_hot(x, k, dtype=jnp.float32):
  """Create a one-hot encoding of x of size k."""
  return jnp.array(x[:, None] == jnp.arange(k), dtype)
  
def accuracy(params, images, targets):
  target_class = jnp.argmax(targets, axis=1)
  predicted_class = jnp.argmax(batched_predict(params, images), axis=1)
  return jnp.mean(predicted_class == target_class)

def loss(params, images, targets):
  preds = batched_predict(params, images)
  return -jnp.mean(preds * targets)

@jit
def update(params, x, y):
  grads = grad(loss)(params, x, y)
  return [(w - step_size * dw, b - step_size * db)
          for (w, b), (dw, db) in zip(params, grads)]

import tensorflow as tf
# Ensure TF does not see GPU and grab all GPU memory.
tf.config.set_visible_devices([], device_type='GPU')

import tensorflow_datasets as tfds

data_dir = '/tmp/tfds'

# Fetch full datasets for evaluation
# tfds.load returns tf.Tensors (or tf.data.Datasets if batch_size != -1)
# You can convert them to NumPy arrays (or iterables of NumPy arrays) with tfds.dataset_as_numpy
mnist_data, info = tfds.load(name="mnist", batch_size=-1, data_dir=data_dir, with_info=True)
mnist_data = tfds.as_numpy(mnist_data)
train_data, test_data = mnist_data['train'], mnist_data['test']
num_labels = info.features['label'].num_classes
h, w, c = info.features['image'].shape
num_pixels = h * w * c

# Full train set
train_images, train_labels = train_data['image'], train_data['label']
train_images = jnp.reshape(train_images, (len(train_images), num_pixels))
train_labels = one_hot(train_labels, num_labels)

# Full test set
test_images, test_labels = test_data['image'], test_data['label']
test_images = jnp.reshape(test_images, (len(test_images), num_pixels))
test_labels = one_hot(test_labels, num_labels)

print('Train:', train_images.shape, train_labels.shape)
print('Test:', test_images.shape, test_labels.shape)

import time

def get_train_batches():
  # as_supervised=True gives us the (image, label) as a tuple instead of a dict
  ds = tfds.load(name='mnist', split='train', as_supervised=True, data_dir=data_dir)
  # You can build up an arbitrary tf.data input pipeline
  ds = ds.batch(batch_size).prefetch(1)
  # tfds.dataset_as_numpy converts the tf.data.Dataset into an iterable of NumPy arrays
  return tfds.as_numpy(ds)

n_calls = 0  # scaffolding
for epoch in range(num_epochs):
  start_time = time.time()
  for x, y in get_train_batches():
    x = jnp.reshape(x, (len(x), num_pixels))
    y = one_hot(y, num_labels)
    params = update(params, x, y)
    n_calls += 1  # scaffolding
  epoch_time = time.time() - start_time

  train_acc = accuracy(params, train_images, train_labels)
  test_acc = accuracy(params, test_images, test_labels)
  print("Epoch {} in {:0.2f} sec".format(epoch, epoch_time))
  print("Training set accuracy {}".format(train_acc))
  print("Test set accuracy {}".format(test_acc))
_report({"jit(update)"}, n_calls)  # scaffolding
