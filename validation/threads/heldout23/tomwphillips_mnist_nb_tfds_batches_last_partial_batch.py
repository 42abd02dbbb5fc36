# source: https://github.com/tomwphillips/jax-experiments/blob/171b5362401ed34184df865b28fce006d2a986bf/MNIST.ipynb
# expect: shape-churn at line 132
# runtime: COMPILES 2 CALLS 16
# why: tfds batches of 128 keep the partial last batch, so the jitted update_parameters compiles a second time for it.
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

import jax
import jax.numpy as np
import jax.random as random
from jax.scipy.special import logsumexp
import numpy as _np  # scaffolding
import types  # scaffolding


class _tfds:  # scaffolding: stand-in for tensorflow_datasets (not installed); 1000 train / 200 test random images
    _r = _np.random.default_rng(0)  # scaffolding
    _data = {"train": {"image": _r.integers(0, 255, (1000, 28, 28, 1)).astype(_np.uint8), "label": _r.integers(0, 10, (1000,))},  # scaffolding
             "test": {"image": _r.integers(0, 255, (200, 28, 28, 1)).astype(_np.uint8), "label": _r.integers(0, 10, (200,))}}  # scaffolding

    @staticmethod
    def load(name, batch_size=-1, with_info=False, split=None, as_supervised=False):  # scaffolding
        if batch_size == -1:  # scaffolding: whole splits at once
            info = types.SimpleNamespace(features={"label": types.SimpleNamespace(num_classes=10)})  # scaffolding
            return _tfds._data, info  # scaffolding
        d = _tfds._data[split]  # scaffolding
        class _B:  # scaffolding: batched dataset, keeps the partial last batch like tf.data's batch()
            def prefetch(self, n):  # scaffolding
                return self  # scaffolding
            def __iter__(self):  # scaffolding
                for i in range(0, len(d["label"]), batch_size):  # scaffolding
                    yield d["image"][i:i + batch_size], d["label"][i:i + batch_size]  # scaffolding
        return _B()  # scaffolding

    @staticmethod
    def as_numpy(x):  # scaffolding
        return x  # scaffolding


tfds = _tfds  # scaffolding

mnist, info = tfds.load('mnist', batch_size=-1, with_info=True)
mnist = tfds.as_numpy(mnist)
train, test = mnist['train'], mnist['test']

train_images = train['image'].reshape(len(train['image']), -1)
test_images = test['image'].reshape(len(test['image']), -1)

assert train_images.ndim == 2
assert test_images.ndim == 2

def one_hot_encode(x, k, dtype=np.float32):
  """One-hot encode x with k classes."""
  return np.array(x[:, None] == np.arange(k), dtype)

num_classes = info.features['label'].num_classes

assert num_classes == 10

train_labels = one_hot_encode(train['label'], num_classes)
test_labels = one_hot_encode(test['label'], num_classes)

def initalize_layer_parameters(input_units, output_units, key):
  weight_key, bias_key = random.split(key)
  weights = 1e-2 * random.normal(weight_key, (output_units, input_units))
  bias = 1e-2 * random.normal(bias_key, (output_units,))
  return weights, bias

def initialize_all_parameters(layer_units, key):
  keys = random.split(key, len(layer_units))
  return [initalize_layer_parameters(input_units, output_units, key)
          for input_units, output_units, key in zip(layer_units[:-1], layer_units[1:], keys)]

def relu(x):
  return np.maximum(0, x)


def softmax(x):
  return x - logsumexp(x)


def predict(parameters, image):
  activations = image
  activation_functions = [*[relu] * (len(parameters) - 1), softmax]

  for (weights, bias), activation in zip(parameters, activation_functions):
    outputs = np.dot(weights, activations) + bias
    activations = activation(outputs)

  return activations

# in_axes=(None, 0) tells jax to not map over the first argument to predict and map over the batch dim of second argument
predict_batch = jax.vmap(predict, in_axes=(None, 0))

def loss(parameters, images, targets):
  # TODO: what loss is this??
  predictions = predict_batch(parameters, images)
  return -np.sum(targets * predictions)

def accuracy(parameters, images, targets):
  target_class = np.argmax(targets, axis=1)
  predicted_class = np.argmax(predict_batch(parameters, images), axis=1)
  return np.mean(predicted_class == target_class)

@jax.jit
def update_parameters(parameters, images, targets, learning_rate):
  gradients = jax.grad(loss)(parameters, images, targets)
  return [(w - (learning_rate * dw), b - (learning_rate * db))
          for (w, b), (dw, db) in zip(parameters, gradients)]

def get_training_data(batch_size=128):
  """Returns generator of (X, y) arrays."""
  # as_supervised=True returns (X, y) instead of dict
  ds = tfds.load('mnist', batch_size=batch_size, split='train', as_supervised=True).prefetch(1)
  return tfds.as_numpy(ds)

key = random.PRNGKey(52)
layers = [784, 512, 256, 10]
parameters = initialize_all_parameters(layers, key)
epochs = 2  # scaffolding: 5 in the notebook
learning_rate = 0.00001

for epoch in range(epochs):
  for images, labels in get_training_data():
    images = images.reshape(len(images), -1)
    labels = one_hot_encode(labels, num_classes)
    parameters = update_parameters(parameters, images, labels, learning_rate)

  epoch_loss = loss(parameters, train_images, train_labels)
  epoch_train_accuracy = accuracy(parameters, train_images, train_labels)
  epoch_test_accuracy = accuracy(parameters, test_images, test_labels)

  print(f"Epoch: {epoch + 1}\t Loss: {epoch_loss:.2E}\t Accuracy: {epoch_train_accuracy:.2f}\t Test accuracy: {epoch_test_accuracy:.2f}")
_report({"jit(update_parameters)"}, 2 * 8)  # scaffolding: 2 epochs x 8 batches
