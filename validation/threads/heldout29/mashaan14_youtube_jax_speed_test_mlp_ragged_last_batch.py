# source: https://github.com/mashaan14/YouTube-channel/blob/7029648518773fbd6bb56d026bcf92510bef8291/notebooks/2024_04_14_jax_speed_test.ipynb
# expect: shape-churn at line 197
# runtime: COMPILES 2 CALLS 189
# why: the toy training split has 8000 points and the DataLoader (batch 128) keeps the ragged last batch of 64, so the jitted apply_model compiles twice: once for 128 rows and again for the last 64.
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
# Standard libraries
import numpy as np
# import seaborn as sns  # scaffolding: seaborn not installed (only used for the timing plot, cut)
# import pandas as pd  # scaffolding: pandas not installed (only used for the timing plot, cut)
import torch
from torch.utils import data

# Plotting libraries
# import matplotlib  # scaffolding: matplotlib not installed; plots cut
# import matplotlib.pyplot as plt  # scaffolding
# from matplotlib import cm  # scaffolding
# from IPython.display import Javascript  # Restrict height of output cell.  # scaffolding: Colab-only display call cut

# jax
import jax
import jax.numpy as jnp
from jax.tree_util import tree_map
import flax
from flax import linen as nn
from flax.training import train_state
import optax

#torchvision
import torchvision
import torchvision.transforms as transforms

# scikit-learn
# from sklearn.datasets import (make_blobs, make_circles)  # scaffolding: sklearn not installed; stand-ins below
# from sklearn.model_selection import train_test_split  # scaffolding: unused


def make_blobs(n_samples, n_features, centers, cluster_std, random_state):  # scaffolding: sklearn.datasets.make_blobs stand-in
    rs = np.random.RandomState(random_state)  # scaffolding
    y = np.arange(n_samples) % centers  # scaffolding
    ctr = rs.uniform(-10, 10, size=(centers, n_features))  # scaffolding
    return ctr[y] + rs.normal(scale=cluster_std, size=(n_samples, n_features)), y  # scaffolding


def make_circles(n_samples, noise, factor, random_state):  # scaffolding: sklearn.datasets.make_circles stand-in (outer, inner)
    rs = np.random.RandomState(random_state)  # scaffolding
    n_out, n_in = n_samples  # scaffolding
    t_out = np.linspace(0, 2 * np.pi, n_out, endpoint=False)  # scaffolding
    t_in = np.linspace(0, 2 * np.pi, n_in, endpoint=False)  # scaffolding
    X = np.vstack([np.c_[np.cos(t_out), np.sin(t_out)], factor * np.c_[np.cos(t_in), np.sin(t_in)]])  # scaffolding
    y = np.hstack([np.zeros(n_out, dtype=np.int64), np.ones(n_in, dtype=np.int64)])  # scaffolding
    return X + rs.normal(scale=noise, size=X.shape), y  # scaffolding

# cell 2
# plt.style.use('dark_background')  # scaffolding: matplotlib cut
# plot_colors = cm.tab10.colors  # scaffolding: matplotlib cut
timing_list = []
# cell 3
IMAGE_SIZE = 32
BATCH_SIZE = 128
DATA_MEANS = np.array([0.49139968, 0.48215841, 0.44653091])
DATA_STD = np.array([0.24703223, 0.24348513, 0.26158784])
CROP_SCALES = (0.8, 1.0)
CROP_RATIO = (0.9, 1.1)
SEED = 42
# cell 4
class ToyDataset(data.Dataset):

  def __init__(self, size, seed):
    super().__init__()
    self.size = size
    self.np_rng = np.random.RandomState(seed=seed)
    self.make_nested_classes()

  def make_nested_classes(self):
    X, y = make_blobs(n_samples=int(self.size*0.2), n_features=2, centers=2, cluster_std=1.9, random_state=SEED)
    X1, y1 = make_circles(n_samples=(int(self.size*0.6), int(self.size*0.2)), noise=0.05, factor=0.1, random_state=SEED)
    # increase the radius
    X1 = X1*3
    # move along the x-axis
    X1[:,0] = X1[:,0]+2.5
    # move along the y-axis
    X1[:,1] = X1[:,1]-7

    X = np.concatenate((X, X1), axis=0)
    y = np.concatenate((y, y1), axis=0)

    self.data = X
    self.label = y

  def __len__(self):
    return self.size

  def __getitem__(self, idx):
    data_point = self.data[idx]
    data_label = self.label[idx]
    return data_point, data_label
# cell 5
dataset = ToyDataset(size=10000, seed=SEED)
dataset
# cell 6: the scatter plot of the dataset cut (matplotlib)  # scaffolding
# cell 7
train_size = int(0.8 * len(dataset))
test_size = len(dataset) - train_size
train_dataset, test_dataset = data.random_split(dataset, [train_size, test_size], generator=torch.Generator().manual_seed(SEED))
# cell 8
# A helper function that converts batches into numpy arrays instead of the default option which is torch tensors
def numpy_collate(batch):
  if isinstance(batch[0], np.ndarray):
    return np.stack(batch)
  elif isinstance(batch[0], (tuple, list)):
    transposed = zip(*batch)
    return [numpy_collate(samples) for samples in transposed]
  else:
    return np.array(batch)
# cell 9
train_data_loader = data.DataLoader(train_dataset, batch_size=BATCH_SIZE, shuffle=False, collate_fn=numpy_collate)
test_data_loader = data.DataLoader(test_dataset, batch_size=BATCH_SIZE, shuffle=False, collate_fn=numpy_collate)
# cell 10
class MLPClassifier(nn.Module):
    hidden_layers: int
    hidden_dim: int
    n_classes: int

    @nn.compact
    def __call__(self, x):
        for layer in range(self.hidden_layers):
            x = nn.Dense(self.hidden_dim)(x)
            x = nn.relu(x)
        x = nn.Dense(self.n_classes)(x)
        x = nn.log_softmax(x)
        return x
# cell 11
model = MLPClassifier(hidden_layers=1, hidden_dim=10, n_classes=2)
print(model)
# cell 12
optimizer = optax.adam(learning_rate=0.01)

rng, inp_rng, init_rng = jax.random.split(jax.random.PRNGKey(SEED), 3)
params = model.init(jax.random.PRNGKey(SEED),
                    jax.random.normal(inp_rng, (BATCH_SIZE, dataset.data.shape[1])))

model_state = train_state.TrainState.create(apply_fn=model.apply,
                                            params=params,
                                            tx=optimizer)
# cell 13
@jax.jit
def apply_model(state, images, labels):
  """Computes gradients, loss and accuracy for a single batch."""

  def loss_fn(params):
    logits = state.apply_fn(params, images)
    one_hot = jax.nn.one_hot(labels, logits.shape[1])
    loss = jnp.mean(optax.softmax_cross_entropy(logits=logits, labels=one_hot))
    return loss, logits

  grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
  (loss, logits), grads = grad_fn(state.params)
  accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
  return grads, loss, accuracy

@jax.jit
def update_model(state, grads):
  return state.apply_gradients(grads=grads)

def train_epoch(state, data_loader):
  """Train for a single epoch."""

  epoch_loss = []
  epoch_accuracy = []

  for batch in data_loader:
    batch_images, batch_labels = batch
    grads, loss, accuracy = apply_model(state, batch_images, batch_labels)
    state = update_model(state, grads)
    epoch_loss.append(loss)
    epoch_accuracy.append(accuracy)
  train_loss = np.mean(epoch_loss)
  train_accuracy = np.mean(epoch_accuracy)
  return state, train_loss, train_accuracy

def train_model(state, train_data_loader, num_epochs):
  # Training loop
  for epoch in range(num_epochs):
    state, train_loss, train_accuracy = train_epoch(state, train_data_loader)
    print(f'epoch: {epoch:03d}, train loss: {train_loss:.4f}, train accuracy: {train_accuracy:.4f}')
  return state
# cell 14
# display(Javascript('''google.colab.output.setIframeHeight(0, true, {maxHeight: 300})'''))  # scaffolding: Colab-only
# func_time = %timeit -o train_model(model_state, train_data_loader, num_epochs=1)  # scaffolding: IPython magic; run twice instead
for _ in range(2):  # scaffolding: stands in for %timeit's repeated runs
    train_model(model_state, train_data_loader, num_epochs=1)  # scaffolding
# timing_list.append(['MLP', 'jit', np.mean(func_time.timings), np.std(func_time.timings)])  # scaffolding: needs %timeit result
# (the no-jit MLP run, the CIFAR10/CNN sections and the plots are cut)  # scaffolding
# cell 24 (the notebook's "Printing cache size" cell; its printed output, 0 1 1 ... 1 2, is over this toy loader: f32[128,2] in its jaxpr)
print(apply_model._cache_size())

for batch in train_data_loader:
  batch_images, batch_labels = batch
  grads, loss, accuracy = apply_model(model_state, batch_images, batch_labels)
  print(apply_model._cache_size())
calls = 3 * len(train_data_loader)  # scaffolding: two epochs plus the cache-size loop
_report({"jit(apply_model)"}, calls)  # scaffolding
