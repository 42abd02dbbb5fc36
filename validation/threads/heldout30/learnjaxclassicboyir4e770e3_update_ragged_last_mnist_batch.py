# source: https://github.com/classicboyir/learn-jax/blob/4e770e3b082058fe1c703471f2c8bb1a5165edae/simpleNN.ipynb
# expect: shape-churn at line 190
# runtime: COMPILES 2 CALLS 10
# why: NumpyLoader keeps drop_last=False, so each epoch over MNIST ends on a short batch (60000 = 468 x 128 + 96) and the jitted update is compiled a second time for it.
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
import numpy as _np  # scaffolding
import torch as _torch  # scaffolding
from PIL import Image as _Image  # scaffolding


class _MNIST(_torch.utils.data.Dataset):  # scaffolding: torchvision's MNIST needs a download; 600 train / 100 test random digits (60000 = 468 x 128 + 96; 600 = 4 x 128 + 88 keeps a short last batch)
    def __init__(self, root, train=True, download=False, transform=None):  # scaffolding
        rs = _np.random.RandomState(0 if train else 1)  # scaffolding
        n = 600 if train else 100  # scaffolding
        self.data = _torch.from_numpy(rs.randint(0, 256, (n, 28, 28)).astype(_np.uint8))  # scaffolding
        self.targets = _torch.from_numpy(rs.randint(0, 10, n))  # scaffolding
        self.transform = transform  # scaffolding
    train_data = test_data = property(lambda self: self.data)  # scaffolding: torchvision's deprecated aliases, used by cell 13
    train_labels = test_labels = property(lambda self: self.targets)  # scaffolding

    def __len__(self):  # scaffolding
        return len(self.targets)  # scaffolding

    def __getitem__(self, i):  # scaffolding: like torchvision, a PIL image through the transform
        img = _Image.fromarray(self.data[i].numpy(), mode='L')  # scaffolding
        return self.transform(img), int(self.targets[i])  # scaffolding


# cell 1
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random
import jax
# cell 2
# jax.profiler.start_trace("/tmp/tensorboard")  # scaffolding: profiler trace dropped
# jax.profiler.stop_trace()
# cell 3
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
num_epochs = 2  # scaffolding: 8 in the notebook
batch_size = 128
n_targets = 10
params = init_network_params(layer_sizes, random.key(0))
# cell 4
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

# cell 5
random_flattened_image = random.normal(random.key(1), (28 * 28,))
preds = predict(params, random_flattened_image)
print(preds.shape)

# cell 6
random_flattened_image.shape
# cell 7
# Doesn't work with a batch
random_flattened_images = random.normal(random.key(1), (10, 28 * 28))
# preds = predict(params, random_flattened_images)

try:
  preds = predict(params, random_flattened_images)
except TypeError:
  print('Invalid shapes!')

# cell 8
random_flattened_images.shape
# cell 9
# Let's upgrade it to handle batches using `vmap`

# Make a batched version of the `predict` function
batched_predict = vmap(predict, in_axes=(None, 0))

# `batched_predict` has the same call signature as `predict`
batched_preds = batched_predict(params, random_flattened_images)
print(batched_preds.shape)
# cell 10
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
# cell 11
import numpy as np
from jax.tree_util import tree_map
from torch.utils import data
from torchvision.datasets import MNIST
MNIST = _MNIST  # scaffolding: stand-in above

def numpy_collate(batch):
  return tree_map(np.asarray, data.default_collate(batch))

class NumpyLoader(data.DataLoader):
  def __init__(self, dataset, batch_size=1,
                shuffle=False, sampler=None,
                batch_sampler=None, num_workers=0,
                pin_memory=False, drop_last=False,
                timeout=0, worker_init_fn=None):
    super(self.__class__, self).__init__(dataset,
        batch_size=batch_size,
        shuffle=shuffle,
        sampler=sampler,
        batch_sampler=batch_sampler,
        num_workers=num_workers,
        collate_fn=numpy_collate,
        pin_memory=pin_memory,
        drop_last=drop_last,
        timeout=timeout,
        worker_init_fn=worker_init_fn)

class FlattenAndCast(object):
  def __call__(self, pic):
    return np.ravel(np.array(pic, dtype=jnp.float32))
# cell 12
# Define our dataset, using torch datasets
mnist_dataset = MNIST('/tmp/mnist/', download=True, transform=FlattenAndCast())
training_generator = NumpyLoader(mnist_dataset, batch_size=batch_size, num_workers=0)

# cell 13
# Get the full train dataset (for checking accuracy while training)
train_images = np.array(mnist_dataset.train_data).reshape(len(mnist_dataset.train_data), -1)
train_labels = one_hot(np.array(mnist_dataset.train_labels), n_targets)

# Get full test dataset
mnist_dataset_test = MNIST('/tmp/mnist/', download=True, train=False)
test_images = jnp.array(mnist_dataset_test.test_data.numpy().reshape(len(mnist_dataset_test.test_data), -1), dtype=jnp.float32)
test_labels = one_hot(np.array(mnist_dataset_test.test_labels), n_targets)
# cell 14
import time

for epoch in range(num_epochs):
  start_time = time.time()
  for x, y in training_generator:
    y = one_hot(y, n_targets)
    params = update(params, x, y)
  epoch_time = time.time() - start_time

  train_acc = accuracy(params, train_images, train_labels)
  test_acc = accuracy(params, test_images, test_labels)
  print("Epoch {} in {:0.2f} sec".format(epoch, epoch_time))
  print("Training set accuracy {}".format(train_acc))
  print("Test set accuracy {}".format(test_acc))
# cell 15
# jax.profiler.stop_trace()  # scaffolding

# cell 16
_report({"jit(update)"}, 2 * 5)  # scaffolding: 2 epochs x 5 batches (4 x 128 + 88)
