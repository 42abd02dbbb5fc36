# source: https://github.com/cgoemaere/jax-intro/blob/main/jax_intro.ipynb
# expect: shape-churn at line 101
# runtime: COMPILES 5 CALLS 18
# why: the loaders keep the last partial batch (64 then 32 for train, 64 then 16 for test), so the filter_jit update_step compiles twice and get_loss_and_acc three times instead of once each.
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
import jax  # scaffolding: the notebook's import cell (cell 3)
import jax.numpy as jnp  # scaffolding
import jax.random as jrand  # scaffolding
from jax import grad, jit, vmap, lax  # scaffolding
import numpy as np  # scaffolding
import time  # scaffolding

import optax  # scaffolding: imported later in the notebook (cell 58), used by cell 54
import types  # scaffolding
class _Arr:  # scaffolding: stand-in for a torch tensor (.numpy())
    def __init__(self, a):  # scaffolding
        self.a = a  # scaffolding
    def numpy(self):  # scaffolding
        return self.a  # scaffolding
class _MNIST:  # scaffolding: stand-in for torchvision MNIST (torch not installed); 96 train / 80 test flattened samples keep the real remainders (60000 % 64 = 32, 10000 % 64 = 16)
    def __init__(self, root, train, download, transform):  # scaffolding
        n = 96 if train else 80  # scaffolding
        rs = np.random.RandomState(0 if train else 1)  # scaffolding
        self.x = rs.randn(n, 784).astype(np.float32)  # scaffolding
        self.y = rs.randint(0, 10, size=n).astype(np.int64)  # scaffolding
class _DataLoader:  # scaffolding: stand-in for torch DataLoader (keeps the last partial batch, as torch does by default)
    def __init__(self, ds, batch_size, shuffle):  # scaffolding
        self.ds, self.bs = ds, batch_size  # scaffolding
    def __iter__(self):  # scaffolding
        for i in range(0, len(self.ds.y), self.bs):  # scaffolding
            yield _Arr(self.ds.x[i:i + self.bs]), _Arr(self.ds.y[i:i + self.bs])  # scaffolding
    def __len__(self):  # scaffolding
        return -(-len(self.ds.y) // self.bs)  # scaffolding
transforms = types.SimpleNamespace(Compose=lambda fs: None, ToTensor=lambda: None, Normalize=lambda m, s: None, Lambda=lambda f: None)  # scaffolding
MNIST, DataLoader = _MNIST, _DataLoader  # scaffolding

import equinox as eqx

class MLP(eqx.Module):
    """A PyTree pretending to be a Multi-Layer Perceptron"""
    layers: list

    def __init__(self, key):
        # Split our key into three (like a responsible adult)
        keys = jrand.split(key, 3)

        # Use keys for random weight init
        self.layers = [
            eqx.nn.Linear(784, 512, key=keys[0]),  # Big layer
            eqx.nn.Linear(512, 256, key=keys[1]),  # Medium layer
            eqx.nn.Linear(256, 10, key=keys[2])    # Small layer
        ]

    def __call__(self, x):
        # Feed forward, with extra GELU sauce
        for i, layer in enumerate(self.layers[:-1]):
            x = jax.nn.gelu(layer(x))
        return self.layers[-1](x)  # Final layer, no activation

# Let's see what this PyTree looks like
model = MLP(jrand.PRNGKey(42))  # 42 is the answer to everything
print("Your model's family tree:", model)

# You'll need to borrow PyTorch's dataloaders (yes, this takes a while to load)
# import torchvision.transforms as transforms  # scaffolding: torch/torchvision not installed, stand-ins above
# from torchvision.datasets import MNIST  # scaffolding
# from torch.utils.data import DataLoader  # scaffolding

def load_mnist(batch_size=64):
    # Normalize and flatten
    transform = transforms.Compose([
        transforms.ToTensor(),
        transforms.Normalize((0.1307,), (0.3081,)),
        transforms.Lambda(lambda x: x.reshape(-1)),
    ])

    # Load datasets
    train_dataset = MNIST(root='./data', train=True, download=True, transform=transform)
    test_dataset = MNIST(root='./data', train=False, download=True, transform=transform)

    # Create dataloaders
    train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)
    test_loader = DataLoader(test_dataset, batch_size=batch_size, shuffle=False)

    return train_loader, test_loader

# Not an outer function, so no need for JIT here (though it couldn't hurt)
def loss_fn(model, x, y):
    """A Cross-Entropy Loss that needs to go down"""
    pred = vmap(model)(x)
    y_onehot = jax.nn.one_hot(y, num_classes=10)
    return jnp.mean(optax.softmax_cross_entropy(pred, y_onehot))

@eqx.filter_jit()  # We want this crazy fast!
def update_step(model, optimizer, opt_state, x, y):
    """You give me model, I give you better model"""
    grads = eqx.filter_grad(loss_fn)(model, x, y)  # Only grads for first arg
    updates, opt_state = optimizer.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    return model, opt_state

@eqx.filter_jit()
def get_loss_and_acc(model, x, y):
    """Combined loss+acc calculation for speedy JIT"""
    pred = vmap(model)(x)  # JIT is smart enough to reuse this in loss_fn
    loss = loss_fn(model, x, y)
    acc = jnp.mean(jnp.argmax(pred, axis=1) == y)
    return loss, acc

def evaluate(model, data_loader):
    """Check how good a model is on a given dataset"""
    total_loss, total_acc, count = 0.0, 0.0, 0

    for data, target in data_loader:
        x, y = jnp.array(data.numpy()), jnp.array(target.numpy())

        loss, acc = get_loss_and_acc(model, x, y)

        # Accumulate metrics
        total_loss += loss
        total_acc += acc
        count += 1

    return total_loss/count, total_acc/count

import optax
from tqdm.auto import tqdm

def train_mnist(key, num_epochs=3):
    # Setup
    model = MLP(key)
    optimizer = optax.adam(1e-3)
    opt_state = optimizer.init(eqx.filter(model, eqx.is_array))
    train_loader, test_loader = load_mnist()

    # Training loop
    for epoch in range(num_epochs):
        # Train
        for data, target in tqdm(train_loader, desc=f"Epoch {epoch+1}"):
            x, y = jnp.array(data.numpy()), jnp.array(target.numpy())
            model, opt_state = update_step(model, optimizer, opt_state, x, y)

        # Evaluate
        _, train_acc = evaluate(model, train_loader)
        _, test_acc = evaluate(model, test_loader)

        print(f"Epoch {epoch+1}: Train acc={train_acc:.4f}, Test acc={test_acc:.4f}")

# Step 1: Choose an initial key (the responsible thing to do, remember?)
key = jrand.PRNGKey(0)

# Step 2: Train the model (AKA coffee break time!)
model = train_mnist(key)

# Step 3: World domination
_report({"jit(update_step)", "jit(get_loss_and_acc)"}, 3 * (2 + 2 + 2))  # scaffolding: per epoch 2 train steps + 2 + 2 evaluation batches
