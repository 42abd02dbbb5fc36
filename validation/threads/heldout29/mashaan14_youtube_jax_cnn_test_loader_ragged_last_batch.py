# source: https://github.com/mashaan14/YouTube-channel/blob/708e6f5253c96ab661e18bfff7ed886703cb8688/notebooks/2024_04_02_jax_CNN.ipynb
# expect: shape-churn at line 216
# runtime: COMPILES 2 CALLS 15
# why: training uses drop_last=True, but the test loop runs the jitted apply_model over test_data_loader with drop_last=False, and 10000 test images leave a last batch of 16 (the notebook's own check prints 10000 / 128 = 78.125), so apply_model compiles again for it.
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
import numpy as np
# import matplotlib.pyplot as plt  # scaffolding: matplotlib not installed; plots cut
# import seaborn as sns  # scaffolding: not installed, unused below
# import pandas as pd  # scaffolding: not installed, unused below
# from IPython.display import Javascript  # Restrict height of output cell.  # scaffolding: Colab-only display call cut
# from sklearn.metrics import ConfusionMatrixDisplay  # scaffolding: sklearn not installed; the confusion-matrix cells are cut

import torch
import torchvision
import torchvision.transforms as transforms
from torch.utils import data

import jax
import jax.numpy as jnp
import flax
import flax.linen as nn
import optax
from jax.tree_util import tree_map
from flax.training import train_state
from PIL import Image  # scaffolding: for the stand-in CIFAR10 below


class _CIFAR10(data.Dataset):  # scaffolding: torchvision.datasets.CIFAR10 needs a download; random 32x32 RGB PIL images (1000 train, 1000 test)
    def __init__(self, root, train=True, transform=None, download=False):  # scaffolding
        self.transform = transform  # scaffolding
        self.n = 1000  # scaffolding
        rs = np.random.RandomState(0 if train else 1)  # scaffolding
        self.pixels = rs.randint(0, 256, size=(self.n, 32, 32, 3), dtype=np.uint8)  # scaffolding
        self.targets = list(rs.randint(0, 10, size=self.n))  # scaffolding

    def __len__(self):  # scaffolding
        return self.n  # scaffolding

    def __getitem__(self, idx):  # scaffolding
        img = Image.fromarray(self.pixels[idx])  # scaffolding
        return (self.transform(img) if self.transform else img), int(self.targets[idx])  # scaffolding


torchvision.datasets.CIFAR10 = _CIFAR10  # scaffolding
# cell 2
IMAGE_SIZE = 32
BATCH_SIZE = 128
DATA_MEANS = np.array([0.49139968, 0.48215841, 0.44653091])
DATA_STD = np.array([0.24703223, 0.24348513, 0.26158784])
CROP_SCALES = (0.8, 1.0)
CROP_RATIO = (0.9, 1.1)
SEED = 42

# plt.style.use('dark_background')  # scaffolding: matplotlib cut
# cell 3
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
# cell 4
# A helper function that normalizes the images between the values specified by the hyper-parameters.
def image_to_numpy(img):
  img = np.array(img, dtype=np.float32)
  img = (img / 255. - DATA_MEANS) / DATA_STD
  return img

# A helper function that converts batches into numpy arrays instead of the default option which is torch tensors
def numpy_collate(batch):
  if isinstance(batch[0], np.ndarray):
    return np.stack(batch)
  elif isinstance(batch[0], (tuple, list)):
    transposed = zip(*batch)
    return [numpy_collate(samples) for samples in transposed]
  else:
    return np.array(batch)

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
    train_set, batch_size=BATCH_SIZE, shuffle=True, drop_last=True, num_workers=0, collate_fn=numpy_collate,  # scaffolding: num_workers=2, persistent_workers=True -> 0
)
val_data_loader = torch.utils.data.DataLoader(
    val_set, batch_size=BATCH_SIZE, shuffle=False, drop_last=False, num_workers=0, collate_fn=numpy_collate,  # scaffolding: likewise
)
test_data_loader = torch.utils.data.DataLoader(
    test_set, batch_size=BATCH_SIZE, shuffle=False, drop_last=False, num_workers=0, collate_fn=numpy_collate,  # scaffolding: likewise
)
# cell 5
print('CHECK CHECK CHECK')
print(f'number of samples in train_set:         {len(train_set)}')
print(f'number of batches in train_data_loader: {len(train_data_loader)}')
print(f'number of samples / batch size:         {len(train_set)} / {BATCH_SIZE} = {len(train_set)/BATCH_SIZE}')
print(f'number of samples in test_set:          {len(test_set)}')
print(f'number of batches in test_data_loader:  {len(test_data_loader)}')
print(f'number of samples / batch size:         {len(test_set)} / {BATCH_SIZE} = {len(test_set)/BATCH_SIZE}')
# cell 6
print(f'size of images in the first train batch: {next(iter(train_data_loader))[0].shape}')
print(f'type of images in the first train batch: {next(iter(train_data_loader))[0].dtype}')
print(f'size of labels in the first train batch: {next(iter(train_data_loader))[1].shape}')
print(f'type of labels in the first train batch: {next(iter(train_data_loader))[1].dtype}')
# cell 7
model = CNN()

optimizer = optax.adam(learning_rate=1e-4)

rng, inp_rng, init_rng = jax.random.split(jax.random.PRNGKey(SEED), 3)
params = model.init(jax.random.PRNGKey(SEED),
                    jax.random.normal(inp_rng, (BATCH_SIZE, 32, 32, 3)))

model_state = train_state.TrainState.create(apply_fn=model.apply,
                                            params=params,
                                            tx=optimizer)
# cell 8
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
# cell 9
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
# cell 10
def train_model(state, train_data_loader, num_epochs):
  # Training loop
  for epoch in range(num_epochs):
    state, train_loss, train_accuracy = train_epoch(state, train_data_loader)
    print(f'epoch: {epoch:03d}, train loss: {train_loss:.4f}, train accuracy: {train_accuracy:.4f}')
  return state
# cell 11
# display(Javascript('''google.colab.output.setIframeHeight(0, true, {maxHeight: 300})'''))  # scaffolding: Colab-only
trained_model_state = train_model(model_state, train_data_loader, num_epochs=1)  # scaffolding: num_epochs=100 -> 1
# cell 12
test_loss = []
test_accuracy = []

for batch in test_data_loader:
  batch_images, batch_labels = batch
  _, loss, accuracy = apply_model(trained_model_state, batch_images, batch_labels)
  test_loss.append(loss)
  test_accuracy.append(accuracy)

print(f'loss: {np.mean(test_loss):.4f}, accuracy: {np.mean(test_accuracy):.4f}')
# (cells 13-14: the confusion matrix over the test set, plotted with sklearn, cut)  # scaffolding
_report({"jit(apply_model)"}, len(train_data_loader) + len(test_data_loader))  # scaffolding: 7 training batches, 8 test batches (the last has 1000 - 7 x 128 = 104 images)
