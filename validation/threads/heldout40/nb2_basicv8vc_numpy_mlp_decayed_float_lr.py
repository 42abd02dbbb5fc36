# source: https://github.com/basicv8vc/jax-tutorials-for-pytorchers/blob/b8e3c08c04737985439a5e527ba76ea64ed94d74/jax-numpy-mlp-mnist-example.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 160
# why: sgd_update is jitted with the learning rate as an ordinary argument that the loop decays every step (lr = lr * 0.999); a changing Python float is traced as a weak-typed scalar, and the training loader uses drop_last=True, so it compiles once.

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


# --- end harness ---
# jax-numpy-mlp-mnist-example.ipynb of basicv8vc/jax-tutorials-for-pytorchers (code cells in order; markdown cells dropped)
# ---- cell 0
import jax
from jax import numpy as jnp
from jax import grad, jit, vmap

# Create PRNGKey (PRNG State)
key = jax.random.PRNGKey(0)
# ---- cell 2
## Create model parameters, excluding input layer, actually there are three Linear layers, each layer contains a set of (w, b), for a total of three sets of parameters

def random_layer_params(m, n, key, scale=1e-2):
    """
    A helper function to randomly initialize weights and biases
    for a dense neural network layer
    """
    w_key, b_key = jax.random.split(key)  # Update explicitly PRNG state
    return scale * jax.random.normal(w_key, (n, m)), scale * jax.random.normal(b_key, (n,))


def init_network_params(sizes, key):
    """Initialize all layers for a fully-connected neural network with sizes "sizes"
    """
    keys = jax.random.split(key, len(sizes))  # split can create multiple keys at the same time
    return [random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]
# ---- cell 3
layer_sizes = [784, 512, 512, 10]

key, init_key = jax.random.split(key)  # init_key used for initialization
params = init_network_params(layer_sizes, init_key)

print(len(params), len(params[0]), len(params[1]), len(params[2]))
# ---- cell 4
print(params[0][0].shape, params[0][1].shape)
# ---- cell 5
# Creating a network is actually to write the forward pass
def relu(x):
    return jnp.maximum(0, x)

# Note that the x below is just an image，we don't need to implement batched_x
def model_forward(params, x):
    # per-example predictions
    for w, b in params[:-1]:
        x = jnp.dot(w, x) + b
        x = relu(x)
    final_w, final_b = params[-1]
    logits = jnp.dot(final_w, x) + final_b
    return logits


# forward has been completed, test it
key, test_key = jax.random.split(key)
random_flattened_image = jax.random.normal(test_key, (784, ))
preds = model_forward(params, random_flattened_image)
print(preds.shape)
# ---- cell 6
# Create a random batch data, shape=(32, 784)
random_batched_flattened_images = jax.random.normal(jax.random.PRNGKey(1), (32, 784))
# model_forward(params, random_batched_flattened_images)  # error
# ---- cell 7
# create a model_forward which support batch data? just to use vmap, life is so easy
batched_forward = vmap(model_forward, in_axes=(None, 0), out_axes=0)

batched_preds = batched_forward(params, random_batched_flattened_images)
print(batched_preds.shape)
# ---- cell 9
import numpy as np
from torch.utils.data import DataLoader
from torch.utils.data import Sampler, SequentialSampler
import torch  # scaffolding: torchvision's MNIST (no download here) is replaced by a random stand-in


class MNIST(torch.utils.data.Dataset):  # scaffolding
    def __init__(self, root, download=False, train=True, transform=None):  # scaffolding
        n = 2560 if train else 1000  # scaffolding: 2560 / 1000 images instead of 60000 / 10000 (1000 % 128 = 104, 10000 % 128 = 16)
        rs = np.random.RandomState(0 if train else 1)  # scaffolding
        self.data = rs.randint(0, 256, size=(n, 28, 28)).astype(np.uint8)  # scaffolding
        self.targets = rs.randint(0, 10, size=(n,))  # scaffolding
        self.transform = transform  # scaffolding

    def __len__(self):  # scaffolding
        return len(self.data)  # scaffolding

    def __getitem__(self, i):  # scaffolding
        return self.transform(self.data[i]), int(self.targets[i])  # scaffolding


class FlattenAndCast(object):
    def __call__(self, pic):
        return np.ravel(np.array(pic, dtype=jnp.float32))

# DataLoader returns numpy array，not torch Tensor
def numpy_collate(batch):
    if isinstance(batch[0], np.ndarray):
        return np.stack(batch)
    elif isinstance(batch[0], (tuple,list)):
        transposed = zip(*batch)
        return [numpy_collate(samples) for samples in transposed]
    else:
        return np.array(batch)

class JAXRandomSampler(Sampler):
    def __init__(self, data_source, rng_key):
        self.data_source = data_source
        self.rng_key = rng_key
        
    def __len__(self):
        return len(self.data_source)
    
    def __iter__(self):
        self.rng_key, current_rng = jax.random.split(self.rng_key)
        return iter(jax.random.permutation(current_rng, jnp.arange(len(self))).tolist())
# ---- cell 10
class NumpyLoader(DataLoader):
    def __init__(self, dataset, rng_key=None, batch_size=1,
                 shuffle=False, **kwargs):
        if shuffle:
            sampler = JAXRandomSampler(dataset, rng_key)
        else:
            sampler = SequentialSampler(dataset)
        
        super().__init__(dataset, batch_size, sampler=sampler, **kwargs)
# ---- cell 11
# With the help of torchvision and NumpyLoader
mnist_dataset_train = MNIST('/tmp/mnist/', download=True, transform=FlattenAndCast())
key, loader_key = jax.random.split(key)
train_loader = NumpyLoader(mnist_dataset_train, loader_key, batch_size=32, shuffle=True,
                           num_workers=0, collate_fn=numpy_collate, drop_last=True)

mnist_dataset_test = MNIST('/tmp/mnist/', download=True, train=False, transform=FlattenAndCast())
eval_loader = NumpyLoader(mnist_dataset_test, batch_size=128, shuffle=False, num_workers=0,
                          collate_fn=numpy_collate, drop_last=False)
# ---- cell 13
from jax.scipy.special import logsumexp


def loss(params, images, targets):
    logits = batched_forward(params, images)
    preds = logits - logsumexp(logits)
    return -jnp.mean(preds * targets)


@jit
def sgd_update(params, x, y, lr):
    grads = grad(loss)(params, x, y)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
# ---- cell 14
def one_hot(x, k=10, dtype=jnp.float32):
    """Create a one-hot encoding of x of size k."""
    return jnp.array(x[:, None] == jnp.arange(k), dtype)

def accuracy(params, loader):
    total_acc = 0
    total_num = 0
    for x, y in loader:
        predicted_class = jnp.argmax(batched_forward(params, x), axis=1)
        total_num += len(x)
        total_acc += jnp.sum(predicted_class == y)
    return total_acc / total_num


lr = 0.01
n_classes = 10
_n_update = 0  # scaffolding
for epoch in range(2):  # scaffolding: 2 epochs instead of 5
    for idx, (x, y) in enumerate(train_loader):
        y = one_hot(y, n_classes)
        params = sgd_update(params, x, y, lr)
        _n_update += 1  # scaffolding
        lr = lr * 0.999 if lr > 1e-3 else 1e-3  # very simple lr scheduler
        if idx % 100 == 0:  # evaluation
            train_acc = accuracy(params, train_loader)
            eval_acc = accuracy(params, eval_loader)
            print("Epoch {} - batch_idx {}, Training set acc {}, eval set accuracy {}".format(
                  epoch, idx, train_acc, eval_acc))
_report({"jit(sgd_update)"}, _n_update)  # scaffolding
