# source: https://github.com/mashaan14/YouTube-channel/blob/7029648518773fbd6bb56d026bcf92510bef8291/notebooks/2024_04_14_jax_speed_test.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 28
# why: the CIFAR10 training loader of the same notebook uses drop_last=True, so every batch is 128 images and apply_model and update_model compile once each over two epochs.
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
# from sklearn.datasets import (make_blobs, make_circles)  # scaffolding: sklearn not installed; only the toy MLP section (cut) uses it
# from sklearn.model_selection import train_test_split  # scaffolding: unused
from PIL import Image  # scaffolding: for the stand-in CIFAR10 below


class _CIFAR10(data.Dataset):  # scaffolding: torchvision.datasets.CIFAR10 needs a download; random 32x32 RGB PIL images, 1000 of them
    def __init__(self, root, train=True, transform=None, download=False):  # scaffolding
        self.transform = transform  # scaffolding
        self.n = 1000 if train else 200  # scaffolding
        self.rs = np.random.RandomState(0 if train else 1)  # scaffolding
        self.pixels = self.rs.randint(0, 256, size=(self.n, 32, 32, 3), dtype=np.uint8)  # scaffolding
        self.targets = list(self.rs.randint(0, 10, size=self.n))  # scaffolding

    def __len__(self):  # scaffolding
        return self.n  # scaffolding

    def __getitem__(self, idx):  # scaffolding
        img = Image.fromarray(self.pixels[idx])  # scaffolding
        return (self.transform(img) if self.transform else img), int(self.targets[idx])  # scaffolding


torchvision.datasets.CIFAR10 = _CIFAR10  # scaffolding
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
# cells 4-12 (toy dataset and MLP) cut: they are the other file of this notebook  # scaffolding
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
# cells 14-17 (MLP timing runs) cut  # scaffolding
# cell 18
# A helper function that normalizes the images between the values specified by the hyper-parameters.
def image_to_numpy(img):
  img = np.array(img, dtype=np.float32)
  img = (img / 255. - DATA_MEANS) / DATA_STD
  return img
# cell 19
classes = ('plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck')
# images in the test set will only be converted into numpy arrays
test_transform = image_to_numpy
# images in the train set will be randomly flipped, cropped, and then converted to numpy arrays
train_transform = transforms.Compose([
    transforms.RandomHorizontalFlip(),
    transforms.RandomResizedCrop((IMAGE_SIZE, IMAGE_SIZE), scale=CROP_SCALES, ratio=CROP_RATIO),
    image_to_numpy
])

# Validation set should not use train_transform.
train_dataset = torchvision.datasets.CIFAR10('data', train=True, transform=train_transform, download=True)
val_dataset = torchvision.datasets.CIFAR10('data', train=True, transform=test_transform, download=True)
train_set, _ = torch.utils.data.random_split(train_dataset, [900, 100], generator=torch.Generator().manual_seed(SEED))  # scaffolding: [45000, 5000] scaled to the 1000-image stand-in
_, val_set = torch.utils.data.random_split(val_dataset, [900, 100], generator=torch.Generator().manual_seed(SEED))  # scaffolding: likewise
test_set = torchvision.datasets.CIFAR10('data', train=False, transform=test_transform, download=True)

train_data_loader = torch.utils.data.DataLoader(
    train_set, batch_size=BATCH_SIZE, shuffle=True, drop_last=True, num_workers=0, collate_fn=numpy_collate,  # scaffolding: num_workers=2, persistent_workers=True -> 0 (no worker processes on the shared CPU)
)
val_data_loader = torch.utils.data.DataLoader(
    val_set, batch_size=BATCH_SIZE, shuffle=False, drop_last=False, num_workers=0, collate_fn=numpy_collate,  # scaffolding: likewise
)
test_data_loader = torch.utils.data.DataLoader(
    test_set, batch_size=BATCH_SIZE, shuffle=False, drop_last=False, num_workers=0, collate_fn=numpy_collate,  # scaffolding: likewise
)
# cell 20
class CNN(nn.Module):
  """A simple CNN model."""

  @nn.compact
  def __call__(self, x):
    x = nn.Conv(features=32, kernel_size=(3, 3))(x)
    x = nn.relu(x)
    x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
    x = nn.Conv(features=64, kernel_size=(3, 3))(x)
    x = nn.relu(x)
    x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
    x = x.reshape((x.shape[0], -1))  # flatten
    x = nn.Dense(features=256)(x)
    x = nn.relu(x)
    x = nn.Dense(features=10)(x)
    return x
# cell 21
model = CNN()

optimizer = optax.adam(learning_rate=1e-4)

rng, inp_rng, init_rng = jax.random.split(jax.random.PRNGKey(SEED), 3)
params = model.init(jax.random.PRNGKey(SEED),
                    jax.random.normal(inp_rng, (BATCH_SIZE, 32, 32, 3)))

model_state = train_state.TrainState.create(apply_fn=model.apply,
                                            params=params,
                                            tx=optimizer)
# cell 22
# display(Javascript('''google.colab.output.setIframeHeight(0, true, {maxHeight: 300})'''))  # scaffolding: Colab-only
# func_time = %timeit -o train_model(model_state, train_data_loader, num_epochs=1)  # scaffolding: IPython magic; run twice instead
for _ in range(2):  # scaffolding: stands in for %timeit's repeated runs
    train_model(model_state, train_data_loader, num_epochs=1)  # scaffolding
# (the no-jit CNN run and the timing plot are cut)  # scaffolding
_report({"jit(apply_model)", "jit(update_model)"}, 4 * len(train_data_loader))  # scaffolding: apply_model and update_model once per batch, two epochs
