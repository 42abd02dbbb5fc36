# source: https://github.com/basicv8vc/jax-tutorials-for-pytorchers/blob/b8e3c08c04737985439a5e527ba76ea64ed94d74/flax-mlp-mnist-example.ipynb
# expect: shape-churn at line 187
# runtime: COMPILES 2 CALLS 56
# why: apply_model is jitted and fed every batch of eval_loader, built with drop_last=False, so the last, shorter test batch (10000 % 128 = 16; 1000 % 128 = 104 here) compiles apply_model a second time.

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
# flax-mlp-mnist-example.ipynb of basicv8vc/jax-tutorials-for-pytorchers (code cells in order; markdown cells dropped)
# ---- cell 0
import jax
from jax import numpy as jnp
from jax import grad, jit, value_and_grad
from flax import linen as nn
from typing import Sequence

# Create PRNGKey (PRNG State)
key = jax.random.PRNGKey(0)
# ---- cell 2
class MLP(nn.Module):
    layer_sizes: Sequence[int] = None
    
    def setup(self):
        self.layers = [nn.Dense(features=size) for size in self.layer_sizes[1:]]
    
    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = layer(x)
            x = nn.relu(x)
        return self.layers[-1](x)

# ---- cell 3
layer_sizes = [784, 512, 512, 10]

# Create model
model = MLP(layer_sizes)

# Using `init` and dummy_x to create model parameters
key, init_key = jax.random.split(key)  # init_key used for initialization
dummy_x = jax.random.uniform(init_key, (784, ))
key, init_key = jax.random.split(key)

params = model.init(init_key, dummy_x)

# params
# ---- cell 5
import optax

lr = 1e-3
lr_decay_fn = optax.linear_schedule(
        init_value=lr,
        end_value=1e-5,
        transition_steps=200,
)

optimizer = optax.adam(
            learning_rate=lr_decay_fn,
)
# ---- cell 6
# Creat a random batch data, shape=(32, 784)
random_batched_flattened_images = jax.random.normal(jax.random.PRNGKey(1), (32, 784))

model.apply(params, random_batched_flattened_images).shape
# ---- cell 8
from flax.training import train_state
# ---- cell 9
state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optimizer)
# ---- cell 11
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


# DataLoader returns numpy array, not torch Tensor
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
# ---- cell 12
class NumpyLoader(DataLoader):
    def __init__(self, dataset, rng_key=None, batch_size=1,
                 shuffle=False, **kwargs):
        if shuffle:
            sampler = JAXRandomSampler(dataset, rng_key)
        else:
            sampler = SequentialSampler(dataset)
        
        super().__init__(dataset, batch_size, sampler=sampler, **kwargs)
# ---- cell 13
# With the help of torchvision and NumpyLoader
mnist_dataset_train = MNIST('/tmp/mnist/', download=True, transform=FlattenAndCast())
key, loader_key = jax.random.split(key)
train_loader = NumpyLoader(mnist_dataset_train, loader_key, batch_size=128, shuffle=True,
                           num_workers=0, collate_fn=numpy_collate, drop_last=True)

mnist_dataset_test = MNIST('/tmp/mnist/', download=True, train=False, transform=FlattenAndCast())
eval_loader = NumpyLoader(mnist_dataset_test, batch_size=128, shuffle=False, num_workers=0,
                          collate_fn=numpy_collate, drop_last=False)
# ---- cell 15
def train_step(state, x, y):
    """Computes gradients and loss for a single batch."""
    def loss_fn(params):
        logits = state.apply_fn(params, x)
        one_hot = jax.nn.one_hot(y, 10)
        loss = jnp.mean(optax.softmax_cross_entropy(logits=logits, labels=one_hot))
        return loss

    grad_fn = value_and_grad(loss_fn)  # `value_and_grad` return the loss while performing a grad 
    loss, grads = grad_fn(state.params)
    new_state = state.apply_gradients(grads=grads)
    return new_state, loss

jit_train_step = jit(train_step, donate_argnums=(0,))  # donate_argnums is used for buffer reuse, in which case the buffers for input and output states are reused


@jax.jit
def apply_model(state, x):
    """Computes gradients and loss for a single batch."""
    
    logits = state.apply_fn(state.params, x)
    return jnp.argmax(logits, -1)

# ---- cell 16
_n_apply = 0  # scaffolding
def eval_model(state, loader):
    global _n_apply  # scaffolding
    total_acc = 0.
    total_num = 0.
    for x, y in loader:
        y_pred = apply_model(state, x)
        _n_apply += 1  # scaffolding
        total_num += len(x)
        total_acc += jnp.sum(y_pred == y)
    return total_acc / total_num
# ---- cell 17
for epoch in range(2):  # scaffolding: 2 epochs instead of 5
    for idx, (x, y) in enumerate(train_loader):
        state, loss = jit_train_step(state, x, y)
        if idx % 100 == 0:  # evaluation
            train_acc = eval_model(state, train_loader)
            eval_acc = eval_model(state, eval_loader)
            print("Epoch {} - batch_idx {}, loss {}, Training set acc {}, eval set accuracy {}".format(
              epoch, idx, loss, train_acc, eval_acc))
_report({"jit(apply_model)"}, _n_apply)  # scaffolding
