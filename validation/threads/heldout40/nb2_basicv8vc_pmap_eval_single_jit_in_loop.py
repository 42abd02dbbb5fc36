# source: https://github.com/basicv8vc/jax-tutorials-for-pytorchers/blob/b8e3c08c04737985439a5e527ba76ea64ed94d74/pmap-mlp-mnist-example.ipynb
# expect: shape-churn at line 248
# runtime: COMPILES 2 CALLS 8
# why: eval_model_single wraps apply_model in jax.jit on every batch (a cache hit, not a recompile), but eval_loader has drop_last=False, so the ragged last test batch compiles jit(apply_model) a second time.

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
# pmap-mlp-mnist-example.ipynb of basicv8vc/jax-tutorials-for-pytorchers (code cells in order; markdown cells dropped)
# ---- cell 0
import jax
from jax import numpy as jnp
from jax import grad, pmap, value_and_grad
import flax
from flax import linen as nn
from typing import Sequence, Any
jax.tree_map = jax.tree_util.tree_map  # scaffolding: jax.tree_map was removed from jax
jax.device_put_replicated = lambda x, devices: jax.tree_util.tree_map(lambda a: jnp.stack([a] * len(devices)), x)  # scaffolding: removed from jax

# Create PRNGKey (PRNG State)
key = jax.random.PRNGKey(0)
# ---- cell 2
class MLP(nn.Module):
    
    def setup(self):
        self.layer1 = nn.Dense(features=512)
        self.dropout1 = nn.Dropout(rate=0.3)
        self.norm1 = nn.BatchNorm()
        
        self.layer2 = nn.Dense(features=512)
        self.dropout2 = nn.Dropout(rate=0.4)
        self.norm2 = nn.BatchNorm()
        
        self.layer3 = nn.Dense(features=10)
        
    
    def __call__(self, x, train:bool = True):
        x = nn.relu(self.layer1(x))
        x = self.dropout1(x, deterministic=not train)
        x = self.norm1(x, use_running_average=not train)
        x = nn.relu(self.layer2(x))
        x = self.dropout2(x, deterministic=not train)
        x = self.norm2(x, use_running_average=not train)
        
        x = self.layer3(x)

        return x
# ---- cell 3
# Create model
model = MLP()

# Using `init` and dummy_x to create model parameters
key, init_key = jax.random.split(key)
dummy_x = jax.random.uniform(init_key, (784, ))

key, init_key, drop_key = jax.random.split(key, 3)

variables = model.init({"params": init_key, "dropout": drop_key}, dummy_x, train=True)
# ---- cell 4
y, non_trainable_params = model.apply(variables, dummy_x, train=True, rngs={"dropout": drop_key},
                                      mutable=['batch_stats']) 
# ---- cell 5
y
# ---- cell 6
non_trainable_params.keys()
# ---- cell 8
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
# ---- cell 9
class NumpyLoader(DataLoader):
    def __init__(self, dataset, rng_key=None, batch_size=1,
                 shuffle=False, **kwargs):
        if shuffle:
            sampler = JAXRandomSampler(dataset, rng_key)
        else:
            sampler = SequentialSampler(dataset)
        
        super().__init__(dataset, batch_size, sampler=sampler, **kwargs)
# ---- cell 10
# With the help of torchvision and NumpyLoader
mnist_dataset_train = MNIST('/tmp/mnist/', download=True, transform=FlattenAndCast())
key, loader_key = jax.random.split(key)
train_loader = NumpyLoader(mnist_dataset_train, loader_key, batch_size=128 * jax.local_device_count(), shuffle=True,
                           num_workers=0, collate_fn=numpy_collate, drop_last=True)

mnist_dataset_test = MNIST('/tmp/mnist/', download=True, train=False, transform=FlattenAndCast())
eval_loader = NumpyLoader(mnist_dataset_test, batch_size=128 * jax.local_device_count(), shuffle=False, num_workers=0,
                          collate_fn=numpy_collate, drop_last=False)
# ---- cell 12
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
# ---- cell 14
from flax.training import train_state

class CustomTrainState(train_state.TrainState):
    batch_stats: flax.core.FrozenDict[str, Any]

state = CustomTrainState.create(
    apply_fn=model.apply,
    params=variables['params'],
    tx=optimizer,
    batch_stats=variables['batch_stats'],
)
# ---- cell 16
def train_step(state, x, y, dropout_key):
    """Computes gradients and loss for a single batch."""
    def loss_fn(params):
        logits, new_state = state.apply_fn({"params": params, "batch_stats": state.batch_stats},
                                           x, train=True, rngs={"dropout": dropout_key}, mutable=["batch_stats"])
        
        one_hot = jax.nn.one_hot(y, 10)
        loss = jnp.mean(optax.softmax_cross_entropy(logits=logits, labels=one_hot))
        return loss, new_state

    grad_fn = value_and_grad(loss_fn, has_aux=True)  # `value_and_grad` return the loss while performing a grad 
    (loss, new_state), grads = grad_fn(state.params)
    grads = jax.lax.pmean(grads, "batch")  # pmean calculates the mean of gradients on all devices
    loss = jax.lax.pmean(loss, "batch")
    batch_stats = jax.lax.pmean(new_state["batch_stats"], "batch")
    new_state = state.apply_gradients(grads=grads, batch_stats=batch_stats)
    
    return new_state, loss

p_train_step = pmap(train_step, "batch", donate_argnums=(0,))  # donate_argnums is used for buffer reuse, in which case the buffers for input and output states are reused


def apply_model(state, x):
    """Computes gradients and loss for a single batch."""
    
    logits = state.apply_fn({"params":state.params, "batch_stats": state.batch_stats},
                            x, train=False)
    return jnp.argmax(logits, -1)

# ---- cell 17
def eval_model(state, loader):
    total_acc = 0.
    total_num = 0.
    for xs, ys in loader:
        xs = jax.tree_map(
            lambda x: x.reshape((jax.local_device_count(), -1) + x.shape[1:]), xs)
        ys = jax.tree_map(
            lambda x: x.reshape((jax.local_device_count(), -1) + x.shape[1:]), ys)
        y_pred = pmap(apply_model)(state, xs)  # There is no cross-device communication operation during validation, so there is no need to set axis_name
        total_num += ys.size
        total_acc += jnp.sum(y_pred == ys)
    return total_acc / total_num
# ---- cell 18
devices = jax.local_devices()
state = jax.device_put_replicated(state, devices)  # Or you can write:  state = flax.jax_utils.replicate(state)
# ---- cell 19
for epoch in range(1):  # scaffolding: 1 epoch instead of 5
    for idx, (xs, ys) in enumerate(train_loader):
        xs = jax.tree_map(
            lambda x: x.reshape((jax.local_device_count(), -1) + x.shape[1:]), xs)
        ys = jax.tree_map(
            lambda x: x.reshape((jax.local_device_count(), -1) + x.shape[1:]), ys)
        
        key, dropout_key = jax.random.split(key)
        dropout_key = jax.random.split(drop_key, jax.local_device_count())
        state, loss = p_train_step(state, xs, ys, dropout_key)
        
        if idx % 100 == 0:  # evaluation
            train_acc = eval_model(state, train_loader)
            eval_acc = eval_model(state, eval_loader)
            print("Epoch {} - batch_idx {}, loss {}, Training set acc {}, eval set accuracy {}".format(
              epoch, idx, jax.tree_map(lambda x: x[0], loss), train_acc, eval_acc))
# ---- cell 22
_calls = []  # scaffolding
def eval_model_single(state, loader):
    total_acc = 0.
    total_num = 0.
    for xs, ys in loader:
        y_pred = jax.jit(apply_model)(state, xs)
        _calls.append(len(xs))  # scaffolding
        total_num += ys.size
        total_acc += jnp.sum(y_pred == ys)
    return total_acc / total_num
# ---- cell 23
eval_model_single(jax.tree_util.tree_map(lambda x: x[0], state), eval_loader)
_report({"jit(apply_model)"}, len(_calls))  # scaffolding
