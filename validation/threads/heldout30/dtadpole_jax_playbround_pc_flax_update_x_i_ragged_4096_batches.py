# source: https://github.com/dtadpole/jax_playbround/blob/0a6ac83aaf6c5cfb19877b55c6418c09f367aab2/pc_flax.ipynb
# expect: shape-churn at line 221
# runtime: COMPILES 2 CALLS 4
# why: data_stream yields batches of 4096 plus a ragged last batch (num_batches = num_complete_batches + bool(leftover)), and x_i (one row per example) goes into the jitted update_x_i, so the last batch of every epoch is a new shape and update_x_i compiles twice.
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
    def mnist():  # scaffolding: 5000 train rows (4096 + a ragged 904, as 60000 = 14 * 4096 + 2656 is ragged), 1000 test rows
        rs = np.random.RandomState(0)  # scaffolding
        one_hot = lambda y: np.array(y[:, None] == np.arange(10), np.float32)  # scaffolding
        return (rs.rand(5000, 784).astype(np.float32), one_hot(rs.randint(0, 10, 5000)),  # scaffolding
                rs.rand(1000, 784).astype(np.float32), one_hot(rs.randint(0, 10, 1000)))  # scaffolding

# cell 2
train_images, train_labels, test_images, test_labels = datasets.mnist()
plt.imshow(jnp.reshape(train_images[0], (28,28)))

# cell 3
batch_size = 4096
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

    @nn.compact
    def __call__(self, x, params=None):
        if params is None:
            x1 = nn.Dense(1024)(x)
        else:
            x1 = nn.Dense(
                features=1024,
                kernel_init=lambda r,s,d:params['Dense_0']['kernel'],
                bias_init=lambda r,s,d:params['Dense_0']['bias'])(x)
        x_1 = self.variable('x_i', 'x_1', lambda s:x1, x1.shape).value
        x2 = nn.tanh(x_1)
        if params is None:
            x2 = nn.Dense(256)(x2)
        else:
            x2 = nn.Dense(
                features=256,
                kernel_init=lambda r,s,d:params['Dense_1']['kernel'],
                bias_init=lambda r,s,d:params['Dense_1']['bias'])(x2)
        x_2 = self.variable('x_i', 'x_2', lambda s:x2, x2.shape).value
        x3 = nn.tanh(x_2)
        if params is None:
            x3 = nn.Dense(10)(x3)
        else:
            x3 = nn.Dense(
                features=10,
                kernel_init=lambda r,s,d:params['Dense_2']['kernel'],
                bias_init=lambda r,s,d:params['Dense_2']['bias'])(x3)
        # y = nn.sigmoid(y)
        # x_3 = self.variable('x_i', 'x_3', lambda s:x3, x3.shape).value
        y = nn.activation.softmax(x3)
        # y = nn.activation.softmax(nn.Dense(10)(x_2))
        energy_i = 0.5 * jnp.sum((x_1 - x1) ** 2, axis=-1) \
            + 0.5 * jnp.sum((x_2 - x2) ** 2, axis=-1)
            # + 0.5 * jnp.sum((x_3 - x3) ** 2, axis=-1)
        return y, energy_i

    # def forward(self, x):
    #     theta_0 = self.get_variable('params', 'Dense_0')
    #     x1 = nn.tanh(jnp.einsum('io,bi->bo', theta_0['kernel'], x) + theta_0['bias'])
    #     self.put_variable('x_i', 'x_1', x1)
    #     theta_y = self.get_variable('params', 'Dense_1')
    #     y = jnp.einsum('io,bi->bo', theta_y['kernel'], x1) + theta_y['bias']
    #     y = nn.activation.softmax(y)
    #     return y


model = MLP()
# cell 5
key1, key2 = random.split(random.key(0))
train_size=123
x = train_images[0:train_size]
y = train_labels[0:train_size]
print(x.shape, y.shape)
variables = model.init(key2, x) # Initialization call
jax.tree_util.tree_map(lambda x: x.shape, variables) # Checking output shapes
# cell 6
model.apply(variables, x)

# cell 7
# Same as JAX version but using model.apply().
# @jax.jit
def energy_fn_(theta, x_i, x_batched, y_batched, alpha=1.0):
  # def cross_entropy(x, y):
  pred, energy_i = model.apply({'params': theta, 'x_i': x_i}, x_batched)
  cse = -jnp.sum(y * jnp.log(pred), axis=-1)
  result = cse + alpha * energy_i
  # result = 0.5 * jnp.sum((pred - y) ** 2, axis=-1) + alpha * energy_i
  # print(f'result: {result.shape}, {jnp.mean(result, axis=0)}')
  # return result, cse, energy_i
  # energy = jnp.mean(jax.vmap(cross_entropy)(x_batched,y_batched), axis=0)
  cse = jnp.mean(cse, axis=0)
  # print(f'cse: {cse.shape} {cse}')
  energy_i = jnp.mean(energy_i, axis=0)
  # print(f'energy_i: {energy_i.shape} {energy_i}')
  energy = jnp.mean(result, axis=0)
  # print(f'energy: {energy.shape}, {energy}')
  return energy, cse, energy_i

# @jax.jit
def energy_fn(theta, x_i, x_batched, y_batched, alpha=1.0):
  return energy_fn_(theta, x_i, x_batched, y_batched, alpha)[0]
# cell 8
def accuracy(variables, batch):
    inputs, targets = batch
    target_class = jnp.argmax(targets, axis=1)
    predicted_class = jnp.argmax(model.apply(variables, inputs)[0], axis=1)
    return jnp.mean(predicted_class == target_class)

# cell 9
T = 100 # max IL iterations
eplison = 3e-4 # IL eplison
x_i_lr = 0.5  # Gradient step size for IL
theta_lr = 0.1 # Gradient step size for Theta
theta_grad_fn = jax.value_and_grad(energy_fn, argnums=0)
x_i_grad_fn = jax.value_and_grad(energy_fn, argnums=1)
print(theta_grad_fn, x_i_grad_fn)

@jax.jit
def update_theta(theta, learning_rate, grads):
  theta = jax.tree_util.tree_map(
      lambda p, g: p - learning_rate * g, theta, grads)
  return theta

@jax.jit
def update_x_i(x_i, learning_rate, grads):
  x_i = jax.tree_util.tree_map(
      lambda p, g: p - learning_rate * g, x_i, grads)
  return x_i

# x, y = next(batches)
# variables = model.init(key2, x)

# variables = model.init(key2, train_images, params=theta)
energy, cse, energy_i = energy_fn_(variables['params'], variables['x_i'], x, y)
print(f'energy: {energy}')
print(f'cse: {cse}')
print(f'energy_i: {energy_i}')

# cell 10
theta = variables['params']

_calls = 0  # scaffolding
for step in range(2):  # scaffolding: range(501) in the notebook
  # Perform one gradient update.
  for _ in range(num_batches):
    x, y = next(batches)
    variables = model.init(key2, x, params=theta)
    theta = variables['params']
    x_i = variables['x_i']
    start_energy = energy_fn(theta, x_i, x, y)
    prev_energy = start_energy
    for t, _ in enumerate(range(T)):
      _, grads = x_i_grad_fn(theta, x_i, x, y)
      _calls += 1  # scaffolding
      x_i = update_x_i(x_i, x_i_lr, grads)
      # model.apply({'params': theta, 'x_i': x_i}, x)
      new_energy = energy_fn(theta, x_i, x, y)
      delta = prev_energy - new_energy
      prev_energy = new_energy
      if delta/new_energy < eplison:
        print(f'IL energy: [{start_energy:.3e} => {new_energy:.3e}] ({t})')
        break
      if t == T-1:
        print(f'IL energy: [{start_energy:.3e} => {new_energy:.3e}] [end] ({t})')

    _, grads = theta_grad_fn(theta, x_i, x, y)
    theta = update_theta(theta, theta_lr, grads)


  if step % 1 == 0:
    print(f'Epoch {step}')
    variables = model.init(key2, train_images, params=theta)
    train_acc = accuracy(variables, (train_images, train_labels))
    variables = model.init(key2, test_images, params=theta)
    test_acc = accuracy(variables, (test_images, test_labels))
    print(f"Training set accuracy {train_acc*100:0.2f}%")
    print(f"Test set accuracy {test_acc*100:0.2f}%")

_report({"jit(update_x_i)"}, _calls)  # scaffolding
