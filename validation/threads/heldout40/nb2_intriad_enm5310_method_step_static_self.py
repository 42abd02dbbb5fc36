# source: https://github.com/intriad/ENM5310-report/blob/3c1b00d6f7557c60491f464574653c8c02604082/code/neuralnet.py
# expect: none
# runtime: COMPILES 1 CALLS 300
# why: The course-style NN.step method is jitted with @partial(jit, static_argnums=(0,)) so self is static; params and opt_state are passed explicitly and self (hashed by identity) never changes, so 300 steps compile once.

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
# code/neuralnet.py of intriad/ENM5310-report (UPenn ENM 5310 course project), run by code/run_all_MLP.ipynb
import sys, types  # scaffolding: pandas and matplotlib are not installed here; the CSV reading is replaced below
sys.modules["pandas"] = types.ModuleType("pandas")  # scaffolding
sys.modules["matplotlib"] = types.ModuleType("matplotlib")  # scaffolding
sys.modules["matplotlib.pyplot"] = types.ModuleType("matplotlib.pyplot")  # scaffolding
sys.argv = ["neuralnet.py", "features/all.txt", "datasets/mxenes/H_ads_no_outliers.csv"]  # scaffolding: run_all_MLP.ipynb passes a feature file and a dataset
import jax.numpy as jnp
import numpy as np
from jax import random, vmap, grad, jit

import jax
import flax.linen as nn
import optax
from sklearn.metrics import mean_absolute_error
import pandas as pd
from torch.utils import data

import itertools
from functools import partial
from tqdm import trange
import matplotlib.pyplot as plt

import sys
import pandas as pd

feature_file = sys.argv[1]
data_file = sys.argv[2]

feature_string = feature_file.split('/')[-1].split('.')[0]
data_string = data_file.split('/')[-1].split('.')[0]

class MLP(nn.Module):
    layer_dim: int
    num_layers: int
    out_dim: int

    @nn.compact
    def __call__(self, x):
        for i in range(self.num_layers):
            x = nn.Dense(self.layer_dim)(x)
            x = nn.tanh(x)
        out = nn.Dense(self.out_dim)(x)

        return out

class NN:
    def __init__(self, model, num_features, rng_key = random.PRNGKey(0)):
        self.model = model
        x = jax.random.uniform(rng_key, (1,num_features), minval=-2, maxval=2)
        self.params = model.init(rng_key, x)

        # Optimizer
        lr = optax.exponential_decay(1e-4, transition_steps=1000, decay_rate=0.9)
        self.optimizer = optax.adam(lr)
        self.opt_state = self.optimizer.init(self.params)

        # Logger
        self.itercount = itertools.count()
        self.loss_log = []

    def loss(self, params, batch):
        x, y = batch
        y_fit = self.model.apply(params, x)
        y_fit = y_fit.squeeze()
        MSE = jnp.mean((y_fit - y) ** 2)
        l2_norm = sum(jnp.sum(jnp.square(p)) for p in jax.tree_util.tree_leaves(params))
        return MSE + 0.01*l2_norm

    @partial(jit, static_argnums=(0,))
    def step(self, params, opt_state, batch):
        grads = grad(self.loss)(params, batch)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state
    
    def train(self, dataset, nIter = 10000):
        data = iter(dataset)
        pbar = trange(nIter)
        # Main training loop
        for it in pbar:
            batch = next(data)
            self.params, self.opt_state = self.step(self.params, self.opt_state, batch)
            # Logger
            if it % 10 == 0:
                loss = self.loss(self.params, batch)
                self.loss_log.append(loss)
                pbar.set_postfix({'loss': loss})

def DataReader(features, dataset, train_size=0.8):
    with open(features, 'r') as featfile:
        feats = featfile.read().split(',')[:-1]

    data = pd.read_csv(dataset)

    y = jnp.array(data['E_ads'])

    to_drop = ['Unnamed: 0','metadata', 'chem','site','E_ads']
    to_drop = [col for col in to_drop if col in data.columns]
    metadata = data[to_drop] if to_drop else pd.DataFrame()

    x_full = data.drop(to_drop, axis=1)
    x = jnp.array(x_full[feats])

    xmean = jnp.mean(x, axis=0)
    xstd = jnp.std(x, axis=0)
    xstd = jnp.where(xstd == 0, 1, xstd)

    x = (x - xmean) / xstd

    num_samples = x.shape[0]
    indices = np.random.permutation(num_samples)
    train_size = int(train_size * num_samples)
    train_indices = indices[:train_size]
    test_indices = indices[train_size:]

    x_train, x_test = x[train_indices], x[test_indices]
    y_train, y_test = y[train_indices], y[test_indices]

    return x_train, y_train, x_test, y_test, metadata

class DataGenerator(data.Dataset):
    def __init__(self, data, target, 
                 batch_size=128, 
                 rng_key=random.PRNGKey(1234)):
        'Initialization'
        self.data = data
        self.target = target
        self.N = target.shape[0]
        self.batch_size = batch_size
        self.key = rng_key

    def __data_generation(self, key, data, target):
        'Generates data containing batch_size samples'
        idx = random.choice(key, self.N, (self.batch_size,), replace=False)
        return data[idx], target[idx]
    
    def __getitem__(self, index):
        'Generate one batch of data'
        self.key, subkey = random.split(self.key)
        data, target = self.__data_generation(self.key, self.data, self.target)
        return data, target

_rs = np.random.RandomState(0)  # scaffolding: stand-in for DataReader(feature_file, data_file) (pandas CSV of MXene adsorption energies)
_x = jnp.asarray(_rs.normal(size=(300, 6)), dtype=jnp.float32)  # scaffolding
_y = _x @ jnp.asarray(_rs.normal(size=6), dtype=jnp.float32)  # scaffolding
x_train, y_train, x_test, y_test, _ = _x[:240], _y[:240], _x[240:], _y[240:], None  # scaffolding

dataset = DataGenerator(x_train, y_train, batch_size=128)

num_features = x_train.shape[1]

model = NN(MLP(layer_dim=256, num_layers=2, out_dim=1), num_features)
model.train(dataset, nIter=300)  # scaffolding: 300 iterations instead of 10000

y_train_pred = vmap(model.model.apply, in_axes=(None, 0))(model.params, x_train)
y_test_pred = vmap(model.model.apply, in_axes=(None, 0))(model.params, x_test)

# scaffolding: the MAE (sklearn, which needs the pandas left out here), plots and CSV dumps into the author's home directory are cut
_report({"jit(step)"}, 300)  # scaffolding
