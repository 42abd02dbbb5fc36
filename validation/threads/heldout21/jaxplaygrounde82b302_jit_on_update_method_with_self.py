# source: https://github.com/AlexMetsai/jax-playground/commit/e82b302f3050a1cb0eb1659da2a9697e744ed050
# expect: bad-static-spec at line 89
# runtime: ERROR TypeError
# why: With the decorator the script had commented out, jit wraps the update method, so self (a FullyConnected object) is passed as an ordinary traced argument and the first update raises.
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

"""
Train a fully connect neural network on the MNIST digit dataset.
"""

import jax
import jax.numpy as jnp
import numpy as np  # scaffolding
from jax import grad, jit, vmap, random
from jax.scipy.special import logsumexp


jax.config.update('jax_platform_name', 'cpu')  # disable irrelevant gpu warning


class mnist:  # scaffolding: synthetic stand-in for the mnist package (256 train, 64 test images)
    _rng = np.random.default_rng(0)
    _tr = _rng.integers(0, 256, (256, 28, 28)).astype(np.uint8)
    _te = _rng.integers(0, 256, (64, 28, 28)).astype(np.uint8)
    train_images = staticmethod(lambda: mnist._tr)
    test_images = staticmethod(lambda: mnist._te)
    train_labels = staticmethod(lambda: np.arange(256) % 10)
    test_labels = staticmethod(lambda: np.arange(64) % 10)


def relu(x):
    return jnp.maximum(0, x)


class FullyConnected:
    def __init__(self, dims, step_size):
        self.weights = self.init_network_weights(dims, random.PRNGKey(0))
        self.step_size = step_size
        self.batch_predict = vmap(self.predict, in_axes=(None, 0))

    def init_weights_and_biases(self, m, n, key, scale=1e-2):
        w_key, b_key = random.split(key)
        return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))

    def init_network_weights(self, dims, key):
        keys = random.split(key, len(dims))
        return [self.init_weights_and_biases(m, n, k) for m, n, k in zip(dims[:-1], dims[1:], keys)]

    @staticmethod
    def predict(weights, image):
        """Defining for a single sample, batches are handled with jax.vamp"""
        activation = image
        for w, b in weights[:-1]:
            output = jnp.dot(w, activation) + b
            activation = relu(output)
        last_layer_w, _last_layer_b = weights[-1]
        logits = jnp.dot(last_layer_w, activation) + _last_layer_b
        return logits - logsumexp(logits)

    def accuracy(self, images_flat, labels):
        target_class = jnp.argmax(labels, axis=1)
        predicted_class = jnp.argmax(self.batch_predict(self.weights, images_flat), axis=1)
        return jnp.mean(predicted_class == target_class)

    @staticmethod
    def loss(weights, images_flat, targets, batch_predict):
        preds = batch_predict(weights, images_flat)
        return -jnp.mean(preds * targets)

    @jit  # the commented-out decorator, enabled (constructed)
    def update(self, x, y):
        grads = grad(self.loss)(self.weights, x, y, self.batch_predict)
        self.weights = [
            (w - self.step_size * dw, b - self.step_size * db)
            for (w, b), (dw, db) in zip(self.weights, grads)
        ]


def one_hot(x, bits, dtype=jnp.float32):
    return jnp.array(x[:, None] == jnp.arange(bits), dtype)


def data_loader(images_flat, labels, batch_size):
    """
    Both TensorFlow and PyTorch offer superb data loaders, but I don't want
    to rely on these packages for the moment, hence the custom data loader.
    """

    # padding for last batch
    pad_len = batch_size - len(images_flat) % batch_size
    images_flat = jnp.concatenate((images_flat, images_flat[:pad_len]))
    labels = jnp.concatenate((labels, labels[:pad_len]))

    # arrange in batches
    num_batches = int(len(images_flat) / batch_size)
    images_flat = images_flat.reshape(num_batches, batch_size, -1)
    labels = labels.reshape(num_batches, batch_size, -1)

    for imgs, labels in zip(images_flat, labels):
        yield imgs, labels


epochs = 2  # scaffolding: 10 in the script
batch_size = 128
num_targets = 10


# Load data
train_images = mnist.train_images()
train_images = train_images.reshape(train_images.shape[0], -1).astype(float)
train_labels = one_hot(mnist.train_labels(), 10)
test_images = mnist.test_images()
test_images = test_images.reshape(test_images.shape[0], -1).astype(float)
test_labels = one_hot(mnist.test_labels(), 10)

# Initiate model
model = FullyConnected(
    dims=[784, 512, 512, 10],
    step_size=0.01
)

# Train model
calls = 0  # scaffolding
try:  # scaffolding
  for epoch in range(epochs):
      for x, y in data_loader(train_images, train_labels, batch_size=batch_size):
          model.update(x, y)
          calls += 1  # scaffolding
      train_acc = model.accuracy(train_images, train_labels)
      test_acc = model.accuracy(test_images, test_labels)
      print(f"Training accuracy: {train_acc}")
      print(f"Testing accruacy: {test_acc}")
  _report({"jit(update)", "jit(_update)"}, calls)  # scaffolding
except TypeError as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
