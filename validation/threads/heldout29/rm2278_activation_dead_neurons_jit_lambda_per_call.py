# source: https://github.com/rm-2278/JAX_practice/blob/20736cca17bd53375155f461ba8018570a3967c4/ActivationFunctions/main.py
# expect: jit-in-loop-or-body at line 268
# runtime: COMPILES 4 CALLS 8
# why: measure_num_dead_neurons builds get_activations = jax.jit(lambda ...) that closes over net and params on every call, so each of the 4 calls traces and compiles again (4 compiles for 8 batch calls), even the third call, whose ReLU net and params equal the first's.
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
import tempfile  # scaffolding
import os  # scaffolding
os.chdir(tempfile.mkdtemp()); os.makedirs("run"); os.chdir("run")  # scaffolding: the script writes ../data and ../checkpoints; run it inside a temp folder

# ---- ActivationFunctions/visualization.py (96971f2), the activation modules main.py imports ----
import math
import numpy as np

import jax
import jax.numpy as jnp

from flax import linen as nn

print("Using device:", jax.devices()[0])

class Sigmoid(nn.Module):
    def __call__(self, x):
        return 1 / (1 + jnp.exp(-x))
    
class Tanh(nn.Module):
    def __call__(self, x):
        return (jnp.exp(x) - jnp.exp(-x)) / (jnp.exp(x) + jnp.exp(-x))
    
class ReLU(nn.Module):
    def __call__(self, x):
        return jnp.maximum(x, 0)

class LeakyReLU(nn.Module):
    alpha: float = 0.1
    def __call__(self, x):
        return jnp.where(x > 0, x, x*self.alpha)

class ELU(nn.Module):
    def __call__(self, x):
        return jnp.where(x > 0, x, jnp.exp(x) - 1)

class Swish(nn.Module):
    def __call__(self, x):
        return x * nn.sigmoid(x)


# ---- ActivationFunctions/model.py (96971f2) ----
from typing import Sequence
from jax import random

init_fun = lambda x: (lambda rng, shape, dtype: random.uniform(rng, shape, dtype, minval=-1/jnp.sqrt(x.shape[1]), maxval=1/jnp.sqrt(x.shape[1])))

class NN(nn.Module):
    act_fn: nn.Module
    num_classes: int = 10
    hidden_sizes: Sequence = (512, 256, 256, 128)
    
    @nn.compact
    def __call__(self, x, return_activations=False):
        x = x.reshape(x.shape[0], -1)
        activations = []
        
        for hid in self.hidden_sizes:
            x = nn.Dense(hid, kernel_init=init_fun(x), bias_init=init_fun(x))(x)
            activations.append(x)
            x = self.act_fn(x)
            activations.append(x)
        x = nn.Dense(self.num_classes, kernel_init=init_fun(x), bias_init=init_fun(x))(x)
        
        
        return x if not return_activations else (x, activations)


# ---- ActivationFunctions/main.py ----
import os
import json
import pickle
# from model import NN  # scaffolding: inlined above
import jax
import jax.numpy as jnp
from flax.training import train_state
import optax
import torch
import torch.utils.data as data
import torchvision
# from torchvision.datasets import FashionMNIST  # scaffolding: needs a download; a torch Dataset stand-in below
import numpy as np
# import matplotlib.pyplot as plt  # scaffolding: only used by commented-out code
# import seaborn as sns  # scaffolding: not installed; only used by visualize_gradient, never called
from tqdm import tqdm

# from visualization import Tanh, Sigmoid, ReLU, LeakyReLU, ELU, Swish  # scaffolding: inlined above


class FashionMNIST(data.Dataset):  # scaffolding: torchvision FashionMNIST stand-in (28x28 uint8 images through the same transform, int labels), 2560 items
    def __init__(self, root, train=True, transform=None, download=False):  # scaffolding
        rng = np.random.default_rng(0 if train else 1)  # scaffolding
        n = 2560 if train else 512  # scaffolding: 60000/10000 cut down
        self.images = rng.integers(0, 256, (n, 28, 28)).astype(np.uint8)  # scaffolding
        self.labels = rng.integers(0, 10, n)  # scaffolding
        self.transform = transform  # scaffolding

    def __len__(self):  # scaffolding
        return len(self.images)  # scaffolding

    def __getitem__(self, i):  # scaffolding
        return self.transform(self.images[i]), int(self.labels[i])  # scaffolding


DATASET_PATH = '../data'
CHECKPOINT_PATH = '../checkpoints/activation_function'


def _get_config_file(model_path, model_name):
    return os.path.join(model_path, model_name + ".config")

def _get_model_file(model_path, model_name):
    return os.path.join(model_path, model_name + '.tar')

def load_model(model_path, model_name, state=None):
    config_file, model_file = _get_config_file(model_path, model_name), _get_model_file(model_path, model_name)
    with open(config_file, "r") as f:
        config_dict = json.load(f)
    
    if state is None:
        act_fn_name = config_dict['act_fn'].pop("name").lower()
        act_fn = act_fn_dict[act_fn_name](**config_dict.pop("act_fn")) # Popping alpha
        net = NN(act_fn, **config_dict)
        state = train_state.TrainState(step=0, params=None, tx=None, apply_fn=net.apply, opt_state=None)
    else:
        net = None
        
    with open(model_file, "rb") as f:
        params = pickle.load(f)
        
    state = state.replace(params=params)
    return state, net

    
def save_model(model, params, model_path, model_name):
    config_dict = {
        'num_classes': model.num_classes,
        'hidden_sizes': model.hidden_sizes,
        'act_fn': {'name': model.act_fn.__class__.__name__.lower()}
    }
    
    if hasattr(model.act_fn, 'alpha'):
        config_dict['act_fn']['alpha'] = model.act_fn.alpha

    os.makedirs(model_path, exist_ok=True)
    config_file, model_file = _get_config_file(model_path, model_name), _get_model_file(model_path, model_name)
    with open(config_file, "w") as f:
        json.dump(config_dict, f)
    with open(model_file, "wb") as f:
        pickle.dump(params, f)
    



# Dataset pre-processing
def image_to_numpy(img):
    img = np.array(img, dtype=np.float32)
    if img.max() > 1:
        img = (img / 255. - 0.5) / 0.5
    return img

def numpy_collate(batch):
    if isinstance(batch[0], np.ndarray):
        return np.stack(batch)
    elif isinstance(batch[0], (tuple, list)):
        transposed = zip(*batch)
        return [numpy_collate(sample) for sample in transposed]
    else:
        return np.array(batch)
    
    
    
from dataclasses import dataclass, field
from typing import List
@dataclass #generates boilerplate
class TrainConfig:
    dataset_path: str = "../data"
    batch_size: int = 1024
    num_workers: int = 0  # scaffolding: 4 worker processes cut to 0 (forking after JAX starts is unsafe here)


cfg = TrainConfig()


train_dataset = FashionMNIST(root=cfg.dataset_path, train=True, transform=image_to_numpy, download=True)
train_dataset, val_dataset = data.random_split(train_dataset, [2048, 512], generator=torch.Generator().manual_seed(42))  # scaffolding: [50000, 10000] scaled to the stand-in
test_dataset = FashionMNIST(root=cfg.dataset_path, train=False, transform=image_to_numpy, download=True)


batch_size = cfg.batch_size

train_dataloader = data.DataLoader(train_dataset, batch_size=batch_size, shuffle=True, drop_last=True, num_workers=cfg.num_workers, collate_fn=numpy_collate)  # scaffolding: pin_memory/persistent_workers dropped (need workers / CUDA)
val_dataloader = data.DataLoader(val_dataset, batch_size=batch_size, shuffle=False, drop_last=False, num_workers=cfg.num_workers, collate_fn=numpy_collate)
test_dataloader = data.DataLoader(test_dataset, batch_size=batch_size, shuffle=False, drop_last=False, num_workers=cfg.num_workers, collate_fn=numpy_collate)

small_dataloader = data.DataLoader(train_dataset, batch_size=256, shuffle=False, drop_last=True, num_workers=cfg.num_workers, collate_fn=numpy_collate)
example_batch = next(iter(small_dataloader))

def visualize_gradient(net, params, axes_row, act_fn_label, color="C0"):
    def loss(params):
        imgs, labels = example_batch
        logits = net.apply(params, imgs)
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
        return loss
    
    grads = jax.grad(loss)(params)
    grads = jax.device_get(grads)
    grads = jax.tree_util.tree_leaves(grads)
    grads = [g.reshape(-1) for g in grads if g.ndim > 1]
    
    for g_idx, g in enumerate(grads):
        layer_ax = axes_row[g_idx]
        sns.histplot(g, bins=80, ax=layer_ax, color=color, kde=False, stat='density', alpha=0.9)
        layer_ax.set_title(f"Layer {g_idx * 2} weights", fontsize=10)

    mid_ax = axes_row[len(grads) // 2]
    mid_ax.text(
        0.5,
        1.25,
        f"{act_fn_label} activation",
        transform=mid_ax.transAxes, # Change axes to 0,0 ~ 1,1
        ha="center", # Set the text to anchor at the center horizontally
        va="bottom", # Set the text to anchor at the bottom vertically
        fontsize=11,
        fontweight="bold"
    )

act_fn_dict = {
    "sigmoid": Sigmoid,
    "tanh": Tanh,
    "relu": ReLU,
    "leakyrelu": LeakyReLU,
    "elu": ELU,
    "swish": Swish
}

# scaffolding: the commented-out gradient-visualisation and train_model/test_model cells of main.py are left out here

def measure_num_dead_neurons(net, params):
    neurons_dead = [
        jnp.ones(hd, dtype=jnp.dtype('bool')) for hd in net.hidden_sizes # Record which neurons are dead. 1 means dead.
    ]
    
    get_activations = jax.jit(lambda inp: net.apply(params, inp, return_activations=True)[1])
    for img, _ in tqdm(train_dataloader, leave=False):
        activations = get_activations(img)
        for index, activ in enumerate(activations[1::2]):
            neurons_dead[index] = jnp.logical_and(neurons_dead[index], (activ==0).all(axis=0)) # zero out the ones that were activated
    number_neurons_dead = [t.sum().item() for t in neurons_dead]
    print(f"Number of dead neurons: {number_neurons_dead}")
    print(f"Percentage:", ", ".join([f"{x/s:4.2%}" for x, s in zip(number_neurons_dead, net.hidden_sizes)]))
    

# We can observe few dead neurons
net_relu = NN(act_fn=ReLU())
params = net_relu.init(jax.random.key(0), example_batch[0])
measure_num_dead_neurons(net_relu, params)

# Leaky relu has no dead neurons.
net_leakyrelu = NN(act_fn=LeakyReLU())
params = net_relu.init(jax.random.key(0), example_batch[0])
measure_num_dead_neurons(net_leakyrelu, params)

save_model(net_relu, params, CHECKPOINT_PATH, "FashionMNIST_relu")  # scaffolding: stands in for the checkpoint the (commented-out) train_model wrote
# Fewer dead neurons (due to model being trained)
state, net_relu = load_model(CHECKPOINT_PATH, model_name="FashionMNIST_relu")
measure_num_dead_neurons(net_relu, state.params)

# Near 50% dead neurons in the last layers. Later layers more likely dead neurons due to loss in variance in the earlier layer.
# Later layers can become alive after training, while input layer cannot.
net_relu = NN(act_fn=ReLU(), hidden_sizes=(256, 256, 256, 256, 256, 128, 128, 128, 128, 128))
params = net_relu.init(jax.random.key(0), example_batch[0])
measure_num_dead_neurons(net_relu, params)
_report({"jit(<lambda>)"}, 8)  # scaffolding: 4 measure_num_dead_neurons calls x 2 full batches of 1024
