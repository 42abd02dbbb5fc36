# source: https://github.com/nv259/jax-101/blob/8eabf17f63b3b5c573327741a35f033ee5104d9b/JAX_ml_plus.ipynb
# expect: shape-churn at line 169
# runtime: COMPILES 2 CALLS 6
# why: train_loader batches MNIST by 128 without drop_last, so each epoch ends with a 96-row batch (60000 = 468 * 128 + 96) and the jitted update compiles a second time for it.
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

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp
from jax import jit, vmap, pmap, grad

# from torchvision.datasets import MNIST  # scaffolding: MNIST needs a download; a marked stand-in Dataset below
from torch.utils.data import DataLoader

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
import torch  # scaffolding
from PIL import Image  # scaffolding


class MNIST(torch.utils.data.Dataset):  # scaffolding: stand-in for torchvision's MNIST (download needed): random 28x28 PIL images through the notebook's transform; 352 train rows = 2 * 128 + 96, as 60000 = 468 * 128 + 96; 200 test rows
    def __init__(self, root, train=True, download=False, transform=None):  # scaffolding
        rs = np.random.RandomState(0 if train else 1)  # scaffolding
        n = 352 if train else 200  # scaffolding
        self.data = rs.randint(0, 256, (n, 28, 28)).astype(np.uint8)  # scaffolding
        self.targets = rs.randint(0, 10, n)  # scaffolding
        self.transform = transform  # scaffolding
    def __len__(self):  # scaffolding
        return len(self.data)  # scaffolding
    def __getitem__(self, i):  # scaffolding
        img = Image.fromarray(self.data[i], mode="L")  # scaffolding
        return (self.transform(img) if self.transform else img), int(self.targets[i])  # scaffolding
# cell 2
# TODO: init MLP and add the predict
# TODO: add data loading in PyTorch
# TODO: ad the training loop, loss fn
# cell 3
seed = 0
mnist_img_size = (28, 28)
batch_size = 128

def init_MLP(layer_widths, rng_key, scale=0.01):

    params = []
    keys = jax.random.split(rng_key, num=len(layer_widths)-1)

    for in_width, out_width, key in zip(layer_widths[:-1], layer_widths[1:], keys):
        weight_key, bias_key = jax.random.split(key)

        params.append([
            scale * jax.random.normal(weight_key, (out_width, in_width)),    # weight
            scale * jax.random.normal(bias_key, (out_width,))                 # bias
        ])

    return params

# tests
key = jax.random.PRNGKey(0)
MLP_params = init_MLP([784, 512, 256, 10], key)

print(jax.tree.map(lambda x: x.shape, MLP_params))
# cell 4
def MLP_predict(params, x):
    hidden_layers = params[:-1]

    for w, b in hidden_layers:
        x = jnp.dot(w, x) + b
        x = jax.nn.relu(x)

    w_final, b_final = params[-1]
    logits = jnp.dot(w_final, x) + b_final
    return logits - logsumexp(logits)

# tests
dummy_img_flat = np.random.randn(np.prod(mnist_img_size))
print(dummy_img_flat.shape)

predict = jax.jit(MLP_predict)
print(predict(MLP_params, dummy_img_flat).shape)

batched_MLP_predict = jit(vmap(MLP_predict, in_axes=(None, 0)))
print(batched_MLP_predict(MLP_params, np.stack([dummy_img_flat, dummy_img_flat])).shape)
# cell 5
def custom_transform(img):
    img = np.array(img, dtype=np.float32).reshape(-1)

    return img

def custom_collate_fn(batch):
    transposed_data = list(zip(*batch))

    images = np.stack(transposed_data[0])
    labels = np.array(transposed_data[1])

    return (images, labels)


train_dataset = MNIST(root='./train_mnist', train=True, download=True, transform=custom_transform)
test_dataset = MNIST(root='./test_mnist', train=False, download=True, transform=custom_transform)

train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True, collate_fn=custom_collate_fn)
test_loader = DataLoader(test_dataset, batch_size=batch_size, shuffle=False, collate_fn=custom_collate_fn)

batch_data = next(iter(train_loader))
print(batch_data[0].shape)  # images shape
print(batch_data[1].shape)  # labels shape
print(type(batch_data[0]))
# cell 6
num_epochs = 2  # scaffolding: 10 in the notebook
_calls = 0  # scaffolding


def loss_fn(params, imgs, gt_labels):
    predictions = batched_MLP_predict(params, imgs)   # (b, 10)

    return -jnp.mean(predictions * gt_labels)

@jit
def update(params, imgs, gt_labels, lr=0.001):
    loss, grads = jax.value_and_grad(loss_fn)(params, imgs, gt_labels)
    return loss, jax.tree.map(lambda x, y: x - lr * y, params, grads)

def accuracy(params, imgs, gt_labels):
    predictions = batched_MLP_predict(params, imgs)
    return jnp.mean(jnp.argmax(predictions, axis=1) == gt_labels)


for epoch in range(num_epochs):

    for imgs, labels in train_loader:
        gt_labels = jax.nn.one_hot(labels, 10)

        _calls += 1  # scaffolding
        loss, MLP_params = update(MLP_params, imgs, gt_labels)

    print(loss)
# cell 7
accuracy(MLP_params, *next(iter(test_loader)))
# cell 8
print(type(MLP_params[0][0]))
# cell 9
imgs, labels = next(iter(test_loader))

predict = batched_MLP_predict(MLP_params, jnp.expand_dims(imgs[0], 0))
print(predict.argmax(), '-', labels[0])

img = imgs[0].reshape(mnist_img_size)
plt.imshow(img); plt.show()
# cell 10
# TODO: visualize the MLP weight
# TODO: visualize embeddings using t-SNE
# TODO: dead neurons
# cell 11
w = MLP_params[0][0]
print(w.shape)
# cell 12

print(sorted(set(_COMPILED)), file=__import__("sys").stderr)  # scaffolding
_report({"jit(update)"}, _calls)  # scaffolding
