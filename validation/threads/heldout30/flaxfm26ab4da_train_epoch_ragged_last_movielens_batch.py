# source: https://github.com/newgrit1004/flax-fm/blob/26ab4da2f18544b83433cbf83b502c8c655b4871/no_batch_norm_dropout_training.ipynb
# expect: shape-churn at line 191
# runtime: COMPILES 2 CALLS 4
# why: the DataLoader keeps the short last batch of the 80% split (16000210 = 62500 x 256 + 210 on MovieLens-20M), so the jitted train_epoch gets a second batch shape at the end of the epoch and compiles twice.
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


import numpy as np  # scaffolding
from types import SimpleNamespace  # scaffolding
np.compat = SimpleNamespace(long=np.int64)  # scaffolding: numpy 2 removed np.compat.long, which flaxfm uses
import jax  # scaffolding
jax.config.update("jax_platforms", "cpu")  # scaffolding

# --- flaxfm/utils.py (the repo's own package, inlined) ---
import flax
import jax
import jax.numpy as jnp
from flax import linen as nn
# from jaxlib.xla_extension import DeviceArray  # scaffolding: removed from jaxlib
DeviceArray = jax.Array  # scaffolding
from functools import partial
from typing import Sequence, Callable
import time

@flax.struct.dataclass
class Config:
    seed : int = 42
    epochs : int = 10
    learning_rate :float = 0.001
    batch_size : int = 256
    pass

config = Config()


@partial(jax.jit, static_argnums=2)
def slicing(x:DeviceArray, index:int, axis:int):
    return jnp.asarray(x).take(index, axis)


# --- flaxfm/layer.py (FeaturesLinearFlax only) ---
from jax import lax

class FeaturesLinearFlax(nn.Module):
    field_dims : np.ndarray
    output_dim : int = 1

    def setup(self):
        self.fc = nn.Embed(sum(self.field_dims), self.output_dim)
        self.offsets = np.array((0, *np.cumsum(self.field_dims)[:-1]), dtype=np.compat.long)
    @nn.compact
    def __call__(self, x):
        x = x+self.offsets
        return np.sum(self.fc(x), axis=1)


# --- flaxfm/model/lr.py ---
class LogisticRegressionModelFlax(nn.Module):
    field_dims : np.ndarray

    def setup(self):
        self.linear = FeaturesLinearFlax(self.field_dims)

    @nn.compact
    def __call__(self, x):
        return jax.nn.sigmoid(self.linear(x).squeeze(1))


# --- scaffolding: flaxfm/dataset/movielens.py reads ratings.csv (MovieLens 20M, 20000263 rows) with pandas;
# this stand-in keeps the class and its preprocessing over 1000 random ratings. The real split gives
# 16000210 training rows = 62500 x 256 + 210; 1000 rows give 800 = 3 x 256 + 32: both end on a short batch.
import torch  # scaffolding


class MovieLens20MDataset(torch.utils.data.Dataset):  # scaffolding
    def __init__(self, dataset_path, sep=',', engine='c', header='infer'):  # scaffolding
        rs = np.random.RandomState(0)  # scaffolding
        data = np.stack([rs.randint(1, 60, 1000), rs.randint(1, 90, 1000), rs.randint(1, 6, 1000)], axis=1).astype(np.float64)  # scaffolding
        self.items = data[:, :2].astype(int) - 1  # scaffolding
        self.targets = self.__preprocess_target(data[:, 2]).astype(np.float32)  # scaffolding
        self.field_dims = np.max(self.items, axis=0) + 1  # scaffolding

    def __len__(self):  # scaffolding
        return self.targets.shape[0]  # scaffolding

    def __getitem__(self, index):  # scaffolding
        return self.items[index], self.targets[index]  # scaffolding

    def __preprocess_target(self, target):  # scaffolding
        target[target <= 3] = 0  # scaffolding
        target[target > 3] = 1  # scaffolding
        return target  # scaffolding


# cell 1
# from flaxfm.utils import config  # scaffolding: inlined above
# from flaxfm.dataset.movielens import MovieLens20MDataset  # scaffolding: stand-in above
import torch
from torch.utils.data import DataLoader

dataset = MovieLens20MDataset(dataset_path='/dist/dataset/ratings.csv')

train_length = int(len(dataset) * 0.8)
valid_length = int(len(dataset) * 0.1)
test_length = len(dataset) - train_length - valid_length
train_dataset, valid_dataset, test_dataset = torch.utils.data.random_split(
        dataset, (train_length, valid_length, test_length))

train_data_loader = DataLoader(train_dataset, batch_size=config.batch_size, num_workers=0)  # scaffolding: num_workers=4 in the notebook
valid_data_loader = DataLoader(valid_dataset, batch_size=config.batch_size, num_workers=0)  # scaffolding: num_workers=4
test_data_loader = DataLoader(test_dataset, batch_size=config.batch_size, num_workers=0)  # scaffolding: num_workers=4

data_loader_dict = {}
data_loader_dict['train'] = train_data_loader
data_loader_dict['valid'] = valid_data_loader
data_loader_dict['test'] = test_data_loader
# cell 2
from typing import Dict
import flax
import jax
# from flaxfm.layer import FeaturesLinearFlax, FeaturesEmbeddingFlax, FactorizationMachineFlax  # scaffolding: inlined above
from flax import linen as nn
# from jaxlib.xla_extension import DeviceArray  # scaffolding: removed from jaxlib; defined above
import optax
from flax.training import train_state
# from optax._src.loss import sigmoid_binary_cross_entropy  # scaffolding: optax moved its private loss module
from optax import sigmoid_binary_cross_entropy  # scaffolding
import jax.numpy as jnp
import numpy as np

def create_train_state(model:nn.Module, rng:DeviceArray,
                        data_loader:torch.utils.data.dataloader.DataLoader):

    params = model.init(rng, next(train_data_loader.__iter__())[0].numpy())['params']
    optimizer = optax.adam(config.learning_rate)
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optimizer)



@jax.jit
def update_model(state:train_state.TrainState, grads:flax.core.frozen_dict.FrozenDict):
    return state.apply_gradients(grads=grads)


@jax.jit
def train_epoch(state: train_state.TrainState, x_train:np.ndarray, y_train:np.ndarray):
    def loss_fn(params):
        preds = state.apply_fn({'params': params}, x_train)
        loss = jnp.mean(sigmoid_binary_cross_entropy(preds, y_train))
        return loss, preds


    preds = state.apply_fn({'params': state.params}, x_train)
    gradient_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, _), grads = gradient_fn(state.params)
    state = update_model(state, grads)
    return state, loss



def train_and_evaluate(data_loader_dict:Dict[str, torch.utils.data.dataloader.DataLoader],
                        model:nn.Module):
    rng = jax.random.PRNGKey(config.seed)
    rng, init_rng = jax.random.split(rng)
    state = create_train_state(model, init_rng, data_loader_dict['train'])

    #train
    for epoch in range(1, config.epochs+1):
        running_loss, epoch_loss = [], []
        for idx, batch in enumerate(data_loader_dict['train']):
            x_train, y_train = list(map(lambda x : x.numpy(), batch))
            state, loss = train_epoch(state, x_train, y_train)
            epoch_loss.append(loss)
            running_loss.append(loss)

            if idx%2000 == 1999:
                """
                많은 양의 epoch를 돌릴 경우 print문 주석처리
                """
                #print(f'epoch {epoch}, {idx+1} loss: {jnp.mean(np.array(running_loss))}')
                running_loss = []
        print(f'Epoch: {epoch}, Epoch Loss: {jnp.mean(np.array(epoch_loss))}')
        break

# cell 3
#first epoch time:79 sec
# from flaxfm.model.lr import LogisticRegressionModelFlax  # scaffolding: inlined above
model = LogisticRegressionModelFlax(dataset.field_dims)
train_and_evaluate(data_loader_dict, model)
# cells 4-5 (the same loop for the fm and ffm models) cut  # scaffolding
_report({"jit(train_epoch)"}, 4)  # scaffolding: 4 batches (3 x 256 + 32) in the one epoch before break
