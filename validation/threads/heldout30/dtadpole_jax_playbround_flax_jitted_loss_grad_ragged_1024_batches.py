# source: https://github.com/dtadpole/jax_playbround/blob/e1522f2113270d1050da0a82b0b5d9142e02708e/flax.ipynb
# expect: shape-churn at line 145
# runtime: COMPILES 4 CALLS 6
# why: data_stream yields 1024-row batches plus a ragged last one, and value_and_grad of the jitted cross_entropy_loss is called on each, so the ragged batch recompiles it (4 compiles: forward and backward computations for each of the 2 shapes).
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
import math
import torch
# import matplotlib.pyplot as plt  # scaffolding: not installed; stand-in below
class _PltStandIn:  # scaffolding: matplotlib is not installed; every plotting call is a no-op
    def __getattr__(self, name):  # scaffolding
        return self  # scaffolding
    def __call__(self, *args, **kwargs):  # scaffolding
        return self  # scaffolding
    def __getitem__(self, key):  # scaffolding
        return self  # scaffolding
    def __iter__(self):  # scaffolding
        return iter((self, self))  # scaffolding


plt = _PltStandIn()  # scaffolding
import numpy as np
import jax
from jax import random, numpy as jnp
# from pc2 import Network, Module, Dense, Sequential  # scaffolding: the repo's pc2.py, unused by this notebook
# import datasets  # scaffolding: stand-in below
from PIL import Image
# import matplotlib.pyplot as plt  # scaffolding: stand-in above
# from clu import metrics
import flax
import flax.linen as nn
# import datasets  # scaffolding: stand-in below
import numpy.random as npr
class datasets:  # scaffolding: the repo's datasets.py (the jax examples loader) downloads MNIST; random stand-in with the same shapes and dtypes
    @staticmethod
    def mnist():  # scaffolding: 2500 train rows (2 * 1024 + a ragged 452, as 60000 = 58 * 1024 + 608 is ragged), 500 test rows
        rs = np.random.RandomState(0)  # scaffolding
        one_hot = lambda y: np.array(y[:, None] == np.arange(10), np.float32)  # scaffolding
        return (rs.rand(2500, 784).astype(np.float32), one_hot(rs.randint(0, 10, 2500)),  # scaffolding
                rs.rand(500, 784).astype(np.float32), one_hot(rs.randint(0, 10, 500)))  # scaffolding

# cell 2
train_images, train_labels, test_images, test_labels = datasets.mnist()
plt.imshow(jnp.reshape(train_images[0], (28,28)))

# cell 3
batch_size = 1024
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

# cell 4
class MLP(nn.Module):
    # def setup(self):
    #     self.dense1 = nn.Dense(1024)
    #     self.dense2 = nn.Dense(10)

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(1024)(x)
        # x = self.dense1(x)
        x = nn.tanh(x)
        x = nn.Dense(10)(x)
        # x = self.dense2(x)
        x = nn.activation.softmax(x)
        return x

model = MLP()
# cell 5
key1, key2 = random.split(random.key(0))
train_size=1000
x = train_images[0:train_size]
y = train_labels[0:train_size]
print(x.shape, y.shape)
params = model.init(key2, x) # Initialization call
jax.tree_util.tree_map(lambda x: x.shape, params) # Checking output shapes
# cell 6
model.apply(params, x)

# cell 7
# Same as JAX version but using model.apply().
@jax.jit
def cross_entropy_loss(params, x_batched, y_batched):
  def cross_entropy(x, y):
    pred = model.apply(params, x)
    return -jnp.sum(y * jnp.log(pred))
  return jnp.mean(jax.vmap(cross_entropy)(x_batched,y_batched), axis=0)

# cell 8
def accuracy(params, batch):
    inputs, targets = batch
    target_class = jnp.argmax(targets, axis=1)
    predicted_class = jnp.argmax(model.apply(params, inputs), axis=1)
    return jnp.mean(predicted_class == target_class)

# cell 9
learning_rate = 0.1  # Gradient step size.
loss_grad_fn = jax.value_and_grad(cross_entropy_loss)
print(loss_grad_fn)

@jax.jit
def update_params(params, learning_rate, grads):
  params = jax.tree_util.tree_map(
      lambda p, g: p - learning_rate * g, params, grads)
  return params

_calls = 0  # scaffolding
for i in range(2):  # scaffolding: range(501) in the notebook
  # Perform one gradient update.
  for _ in range(num_batches):
    x, y = next(batches)
    _calls += 1  # scaffolding
    loss_val, grads = loss_grad_fn(params, x, y)
    params = update_params(params, learning_rate, grads)

  if i % 10 == 0:
    print(f'Loss step {i}: ', loss_val)
    train_acc = accuracy(params, (train_images, train_labels))
    test_acc = accuracy(params, (test_images, test_labels))
    print(f"Training set accuracy {train_acc*100:0.2f}%")
    print(f"Test set accuracy {test_acc*100:0.2f}%")

print(sorted(set(_COMPILED)), file=__import__("sys").stderr)  # scaffolding
_report({"jit(cross_entropy_loss)"}, _calls)  # scaffolding
