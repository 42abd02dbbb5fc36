# source: https://github.com/lukaemon/minGPT-reimplemented/blob/375c4a99d343cbd342b22ce5a802d773b230e3ed/jax_impl/train.py
# expect: trace-time-error at line 423
# runtime: ERROR TypeError
# why: train_step is @jax.jit with no static arguments and is called with model_config, a plain Python dataclass, so jit cannot treat it as an array and raises TypeError.
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




# --- torch_impl/utils.py (commit 375c4a9) ---
import random
import numpy as np
# import torch  # scaffolding: torch is not installed (only set_seed, never called here, uses it)

from dataclasses import dataclass
from typing import Tuple
from enum import Enum

from flax import struct

def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)


@dataclass
class ModelConfig:
    vocab_size: int
    context_window: int
    n_embd: int = None
    n_head: int = None
    n_layer: int = None
    model_type: str = None
    attn_pdrop: float = 0.1
    recid_pdrop: float = 0.1
    embd_pdrop: float = 0.1
    

    def __post_init__(self):
        self.config_set = {
            # names follow the huggingface naming conventions
            # GPT-1
            "openai-gpt": dict(n_layer=12, n_head=12, n_embd=768),  # 117M params
            # GPT-2 configs
            "gpt2": dict(n_layer=12, n_head=12, n_embd=768),  # 124M params
            "gpt2-medium": dict(n_layer=24, n_head=16, n_embd=1024),  # 350M params
            "gpt2-large": dict(n_layer=36, n_head=20, n_embd=1280),  # 774M params
            "gpt2-xl": dict(n_layer=48, n_head=25, n_embd=1600),  # 1558M params
            # Gophers
            "gopher-44m": dict(n_layer=8, n_head=16, n_embd=512),
            # (there are a number more...)
            # I made these tiny models up
            "gpt-mini": dict(n_layer=6, n_head=6, n_embd=192),
            "gpt-micro": dict(n_layer=4, n_head=4, n_embd=128),
            "gpt-nano": dict(n_layer=3, n_head=3, n_embd=48),
        }

        params_given = all([self.n_embd, self.n_head, self.n_layer])
        type_given = self.model_type is not None
        assert (
            type_given ^ params_given
        ), f"Supported model_type: {list(self.config_set.keys())}, or provide customized params."

        if type_given:
            preset = self.config_set[self.model_type]
            self.n_embd = preset["n_embd"]
            self.n_head = preset["n_head"]
            self.n_layer = preset["n_layer"]


TrainerCallbackEvent = Enum("TrainerCallbackEvent", "on_train_batch_end")


@dataclass
class TrainConfig:
    device: str = "auto"

    # dataloader
    num_workers: int = 0
    batch_size: int = 64
    sequence_len: int = 6

    # training
    max_iters: int = None
    learning_rate: float = 3e-4
    betas: Tuple[float, float] = (0.9, 0.95)
    weight_decay: float = 0.1
    grad_norm_clip: float = 1.0

# --- jax_impl/model.py (commit 375c4a9) ---
import math

import jax
import jax.numpy as jnp
from jax.tree_util import tree_map

import flax
import flax.linen as nn

import numpy as np

# from torch_impl.utils import ModelConfig  # scaffolding: inlined above


class Attention(nn.Module):
    '''multihead causal self-attention'''
    config: ModelConfig

    @nn.compact
    def __call__(self, x, training=True):
        b, t, c = x.shape

        # [q, k, v], each (b,t,n_embd), pool qkv transform as one huge linear transform
        qkv = jnp.split(nn.Dense(  # scaffolding: jax arrays no longer have .split(); jnp.split is the same call
            features=3 * self.config.n_embd, # hence 3xn_embd output
            kernel_init=nn.initializers.normal(stddev=0.02) # bias init default zeros
            )(x), 3, axis=-1) # then split
        
        # multi-head split, hc: head channel
        q, k, v = tree_map(
            lambda x: x.reshape(b, t, self.config.n_head, c // self.config.n_head).transpose((0, 2, 1, 3)),
            qkv,
        ) # (b,h,t,hc)

        att = q @ k.transpose(0, 1, 3, 2) / math.sqrt(c)  # (b,h,t,t)

        # apply causal mask
        mask = jnp.tril(jnp.ones((t, t)))
        att = jnp.where(mask==0, -jnp.inf, att)

        # compute weights
        att = nn.softmax(att, axis=-1)
        att = nn.Dropout(self.config.attn_pdrop)(att, deterministic=not training)

        # weighted sum
        output = att @ v  # (b,h,t,hc)

        # multihead concat, (b,t,h,hc) -> (b,t,c)
        output = output.transpose((0, 2, 1, 3)).reshape(b, t, c)

        # output dense layer
        output = nn.Dense(  # ref 3
            self.config.n_embd, 
            kernel_init=nn.initializers.normal(stddev=0.02 / math.sqrt(2 * self.config.n_layer))
            )(output)

        return output


class Block(nn.Module):
    '''encoder block'''
    config: ModelConfig

    @nn.compact
    def __call__(self, x, training=True):

        # residual link
        output = x + Attention(self.config)(nn.LayerNorm()(x), training)

        mlp = nn.Sequential([
            nn.Dense(4 * self.config.n_embd, kernel_init=nn.initializers.normal(stddev=0.02)),
            nn.gelu,
            nn.Dense(self.config.n_embd, kernel_init=nn.initializers.normal(stddev=0.02 / math.sqrt(2 * self.config.n_layer))),  # ref 3
            nn.Dropout(self.config.recid_pdrop, deterministic=not training),
        ])

        # resi link
        output = output + mlp(nn.LayerNorm()(output))

        return output


class Embedding(nn.Module):
    '''position and token embedding'''
    config: ModelConfig

    @nn.compact
    def __call__(self, idx, training=True):
        """idx: (b, t), the data is seq of number in this toy problem"""
        b, t = idx.shape

        position_embedding = nn.Embed(
            self.config.context_window, 
            self.config.n_embd,
            embedding_init=nn.initializers.normal(stddev=0.02)
            )

        # (t,n_embd) > (1,t,n_embd)
        wpe = position_embedding(jnp.arange(t))[None,]

        token_embedding = nn.Embed(
            self.config.vocab_size, 
            self.config.n_embd,
            embedding_init=nn.initializers.normal(stddev=0.02)
            )
        wte = token_embedding(idx)  # (b, t, n_embd)

        output = nn.Dropout(self.config.embd_pdrop)(
            wpe + wte, 
            deterministic=not training
        )

        return output


class GPT(nn.Module):
    config: ModelConfig

    @nn.compact
    def __call__(self, x, training=True):
        x = Embedding(self.config)(x, training)

        for _ in range(self.config.n_layer):
            x = Block(self.config)(x, training)

        x = nn.LayerNorm()(x)

        # output head
        logits = nn.Dense(self.config.vocab_size)(x)

        return logits


# reference
# param speical init
# 1. Dense default init https://flax.readthedocs.io/en/latest/_modules/flax/linen/linear.html
# 2. layernorm init default to ones and zeros https://flax.readthedocs.io/en/latest/_modules/flax/linen/normalization.html#LayerNorm
# 3. Reinitialize selected weights subject to the OpenAI GPT-2 Paper Scheme:
#     #   > A modified initialization which accounts for the accumulation on the residual path with model depth. Scale
#     #   > the weights of residual layers at initialization by a factor of 1/√N where N is the # of residual layers.
#     #   >   -- GPT-2 :: https://openai.com/blog/better-language-models/
#     #
#     # Reference (Megatron-LM): https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/model/gpt_model.py
# --- jax_impl/train.py (commit 375c4a9) ---
import jax
import jax.numpy as jnp 

import optax
from flax.training import train_state

# from jax_impl.model import GPT  # scaffolding: inlined above
# from torch_impl.utils import TrainConfig, ModelConfig  # scaffolding: inlined above

def loss_fn(logits, labels, ignore_index=-1):
    filter = labels != ignore_index # filter out -1 padding pairs
    labels = labels[filter]
    logits = logits[filter]

    loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels) # ref 1

    return loss.mean() # batch average loss, torch cross entropy loss default redution is mean as well

def create_train_state(rng, model_config:ModelConfig, train_config: TrainConfig):
    rng_param, rng_dropout, rng = jax.random.split(rng, 3)
    init_rngs = {'params': rng_param, 'dropout': rng_dropout}

    model = GPT(model_config)
    
    input_shape = (train_config.batch_size, train_config.sequence_len)
    params = model.init(init_rngs, jnp.zeros(input_shape, jnp.int32))
    tx = optax.adamw(train_config.learning_rate)

    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)

@jax.jit
def train_step(rng, state:train_state.TrainState, batch, model_config):
    def compute_loss(params, rng):
        rng_dropout, rng = jax.random.split(rng)
        rngs = {'dropout': rng_dropout}
        
        x, y = batch
        logits = GPT(model_config).apply(params, x, rngs=rngs)
        loss = loss_fn(logits, y, ignore_index=-1)

        return loss
    grad_fn = jax.grad(compute_loss)
    grads = grad_fn(state.params, rng)

    state = state.apply_gradients(grads=grads)

    return state
    

# reference
# 1. cross entropy loss https://github.com/deepmind/optax/blob/90b17710a061a5f4c7b060f4c7715f2d539cb39f/optax/_src/loss.py#L175#L207
# 

# --- stand-ins for general/dataset.py and torch's DataLoader ---
class SortDataset:  # scaffolding: numpy stand-in for general.dataset.SortDataset (torch is not installed); same x/y layout
    def __init__(self, split, length=6, num_digits=3, transform=None):  # scaffolding
        self.split, self.length, self.num_digits, self.transform = split, length, num_digits, transform  # scaffolding
        self._rng = np.random.default_rng(0)  # scaffolding

    def __len__(self):  # scaffolding
        return 10000  # scaffolding

    def __getitem__(self, idx):  # scaffolding
        inp = self._rng.integers(self.num_digits, size=(self.length,))  # scaffolding
        cat = np.concatenate([inp, np.sort(inp)])  # scaffolding
        x, y = cat[:-1].copy(), cat[1:].copy()  # scaffolding
        y[: self.length - 1] = -1  # scaffolding
        if self.transform:  # scaffolding
            x, y = self.transform(x), self.transform(y)  # scaffolding
        return x, y  # scaffolding


class DataLoader:  # scaffolding: stand-in for torch.utils.data.DataLoader
    def __init__(self, dataset, batch_size=1, shuffle=False, collate_fn=None):  # scaffolding
        self.dataset, self.batch_size, self.shuffle, self.collate_fn = dataset, batch_size, shuffle, collate_fn  # scaffolding

    def __iter__(self):  # scaffolding
        idx = np.random.permutation(len(self.dataset)) if self.shuffle else np.arange(len(self.dataset))  # scaffolding
        for i in range(0, len(idx), self.batch_size):  # scaffolding
            yield self.collate_fn([self.dataset[j] for j in idx[i:i + self.batch_size]])  # scaffolding


# --- jax_demo.ipynb ---
# cell 0
import functools
from jax import random
# from general.utils import ModelConfig, TrainConfig  # scaffolding: inlined above
# from jax_impl.model import *  # scaffolding: inlined above

# cell 1
key = random.PRNGKey(42)

model_config = ModelConfig(
    vocab_size=1024, 
    context_window=64, 
    model_type='gpt-nano')
model_config

# cell 2
rx, rp, rd, key = random.split(key, 4)
init_rngs = {'params': rp, 'dropout': rd}

x = random.normal(rx, (10, 4, 48))

attn = Attention(model_config)
params = attn.init(init_rngs, x)

out = attn.apply(params, x, rngs={'dropout': rd})
out.shape

# cell 4
idx = random.randint(rx, (10, 4), 0, maxval=model_config.vocab_size, dtype=jnp.int32)  # scaffolding: dtype=jnp.integer is rejected by current jax; int32 is what it meant

# cell 6
# from general.dataset import SortDataset  # scaffolding: stand-in above
# from torch.utils.data import DataLoader  # scaffolding: stand-in above

def numpy_collate(batch):
  if isinstance(batch[0], np.ndarray):
    return np.stack(batch)
  elif isinstance(batch[0], (tuple,list)):
    transposed = zip(*batch)
    return [numpy_collate(samples) for samples in transposed]
  else:
    return np.array(batch)

def cast(x):
    return np.array(x, dtype=int)

# cell 7
train_dataset = SortDataset('train', num_digits=6, transform=cast)
train_loader = DataLoader(train_dataset, batch_size=32, shuffle=True, collate_fn=numpy_collate)

# cell 8
batch = next(iter(train_loader))
x, y = batch
x.shape

# cell 10
model_config = ModelConfig(
    vocab_size=6, 
    context_window=16, 
    model_type='gpt-nano')

# cell 11
gpt = GPT(model_config)
params = gpt.init(init_rngs, idx)

logits = gpt.apply(params, x, rngs={'dropout': rd})

# cell 20
loss_fn(logits, y)

# cell 21
# from jax_impl.train import create_train_state  # scaffolding: inlined above

# cell 22
train_config = TrainConfig()

# cell 23
state = create_train_state(key, model_config, train_config)

# cell 25
# from jax_impl.train import train_step  # scaffolding: inlined above

# cell 26
try:  # scaffolding
    train_step(key, state, batch, model_config)
    _report({"jit(train_step)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
