# source: https://github.com/present42/PyTorchPractice/blob/a4e3a230ead0de094578d59d5685171b9f3a4324/Following_Jax_Tutorial_Training_a_Simple_Neural_Network,_with_PyTorch_Data_Loading.ipynb
# expect: shape-churn at line 181
# runtime: COMPILES 2 CALLS 10
# why: the NumpyLoader keeps drop_last=False, so the last batch of every epoch is smaller (MNIST 60000 % 128 = 96) and the jitted update compiles a second time for that shape.
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



# cell 1
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random

# cell 3
def random_layer_params(m, n, key, scale=1e-2):
  w_key, b_key = random.split(key)
  return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))

# cell 4
def init_network_params(sizes, key):
  keys = random.split(key, len(sizes))
  return [random_layer_params(m, n, key)
    for m, n, key in zip(sizes[:-1], sizes[1:], keys)]

layer_sizes = [784, 512, 512, 10]
step_size = 0.01
num_epochs = 2  # scaffolding: 8 in the notebook
batch_size = 128
n_targets = 10
params = init_network_params(layer_sizes, random.key(0))

# cell 6
from jax.scipy.special import logsumexp

def relu(x):
  return jnp.maximum(x, 0)

def predict(params, image):
  activations = image
  for w, b in params[:-1]:
    outputs = jnp.dot(w, activations) + b
    activations = relu(outputs)

  final_w, final_b = params[-1]
  logits = jnp.dot(final_w, activations) + final_b
  return logits - logsumexp(logits)

# cell 7
random_flattened_image = random.normal(random.key(1), (28 * 28,))
preds = predict(params, random_flattened_image)
print(preds.shape)

# cell 8
random_flattened_images = random.normal(random.key(42), (10, 28 * 28))

# Make a batched version of the predict function
batched_predict = vmap(predict, in_axes=(None, 0))
batched_preds = batched_predict(params, random_flattened_images)
print(batched_preds.shape)

# cell 10
def one_hot(x, k, dtype=jnp.float32):
  """ assume x is an array of integers of size k"""
  return jnp.array(x[:, None] == jnp.arange(k), dtype)

# cell 11
def accuracy(params, images, targets):
  """ assumes targets are one-hot vectors (size: N x K)
      where N is batch size, K is # of classes
  """
  target_class = jnp.argmax(targets, axis=1)
  predicted_class = jnp.argmax(batched_predict(params, images), axis=-1)
  return jnp.mean(predicted_class == target_class)

# cell 12
def loss(params, images, targets):
  """ cross entropy loss """
  preds = batched_predict(params, images)
  return -jnp.mean(preds * targets)

# cell 13
@jit
def update(params, x, y):
  grads = grad(loss)(params, x, y)
  return [(w - step_size * dw, b - step_size * db)
    for (w, b), (dw, db) in zip(params, grads)]

# cell 15
import numpy as np
from torch.utils import data
# from torchvision.datasets import MNIST  # scaffolding: MNIST needs a download; a stand-in Dataset follows
import jax
import torch  # scaffolding


class MNIST(data.Dataset):  # scaffolding: stands in for torchvision's MNIST: uint8 28x28 images; 608 = 4*128 + 96 training images keep MNIST's 60000 % 128 == 96
    def __init__(self, root, download=True, transform=None, train=True):  # scaffolding
        g = torch.Generator().manual_seed(0 if train else 1)  # scaffolding
        n = 608 if train else 200  # scaffolding
        self.data = torch.randint(0, 256, (n, 28, 28), dtype=torch.uint8, generator=g)  # scaffolding
        self.targets = torch.randint(0, 10, (n,), generator=g)  # scaffolding
        self.transform = transform  # scaffolding

    def __len__(self):  # scaffolding
        return len(self.data)  # scaffolding

    def __getitem__(self, i):  # scaffolding
        img, target = self.data[i].numpy(), int(self.targets[i])  # scaffolding
        return (self.transform(img) if self.transform else img), target  # scaffolding


# cell 16
def numpy_collate(batch):
  return jax.tree.map(np.asarray,
                      data.default_collate(batch))

# cell 17
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

# cell 18
class FlattenAndCast(object):
  def __call__(self, pic):
    return np.ravel(np.array(pic, dtype=jnp.float32))

# cell 19
mnist_dataset = MNIST('/tmp/mnist/', download=True, transform=FlattenAndCast())
training_generator = NumpyLoader(mnist_dataset, batch_size=batch_size, num_workers=0)

# cell 20
# get the full train dataset (for checking accuracy while training)
train_images = np.array(mnist_dataset.data).reshape(len(mnist_dataset.data), -1)
train_labels = one_hot(np.array(mnist_dataset.targets), n_targets)

# cell 21
mnist_dataset_test = MNIST('/tmp/mnist/', download=True, train=False)
test_images = jnp.array(mnist_dataset_test.data.numpy().reshape(len(mnist_dataset_test.data), -1), dtype=jnp.float32)
test_labels = one_hot(np.array(mnist_dataset_test.targets), n_targets)

# cell 23
import time

for epoch in range(num_epochs):
  start_time = time.time()
  for x, y in training_generator:
    y = one_hot(y, n_targets)
    params = update(params, x, y)
  epoch_time = time.time() - start_time

  train_acc = accuracy(params, train_images, train_labels)
  test_acc = accuracy(params, test_images, test_labels)

  print(f"Epoch {epoch} in {epoch_time:0.2f} sec")
  print(f"Training set accuracy: {train_acc}")
  print(f"Test set accuracy: {test_acc}")

_report({"jit(update)"}, 2 * len(training_generator))  # scaffolding: 2 epochs of 5 batches (4 of 128, the last of 96)
