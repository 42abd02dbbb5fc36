# source: https://github.com/luffykai/nanogpt-jax/blob/d40f2988b67d812a284d5ff444ccd5997c0853dc/train_skakespear.py
# expect: none
# runtime: COMPILES 1 CALLS 302
# why: the jitted train_step is fed from a torch DataLoader without drop_last, but the epoch loop breaks after max_iter_per_epoch (302 batches) long before the ragged last batch of the 1.0M-sample dataset, so every batch is (16, 32) and train_step compiles once.
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


# ---- data.py ----
from dataclasses import dataclass
from typing import List

# from datasets import load_dataset, DatasetDict  # scaffolding: not installed; only the wikitext path (not run) uses it
import numpy as np
from jax import numpy as jnp
from torch.utils.data import Dataset, DataLoader
from tqdm import tqdm
# from tokenizers import Tokenizer  # scaffolding: not installed; only the wikitext path (not run) uses it


@dataclass
class DataSpec:
    trainloader: DataLoader
    testloader: DataLoader


# === tiny shakespear
class CharDataset(Dataset):

    def __init__(self, encoded: List[int], context_len: int):
        self.data = encoded
        self.context_len = context_len
    
    def __len__(self):
        return len(self.data) - self.context_len - 1
    
    def __getitem__(self, idx):
        x = np.array(self.data[idx : idx + self.context_len])
        y = np.array(self.data[idx + 1: idx + self.context_len + 1])
        return x, y


def shakespear(batch_size=16, context_size=32):
    # with open('data/input.txt', 'r', encoding='utf-8') as f:  # scaffolding: tiny shakespeare needs a download
    #     text = f.read()
    _rs = np.random.RandomState(0)  # scaffolding
    text = ''.join(_rs.choice(list("\n !$&',-.3:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"), 1115394))  # scaffolding: random text over the 65 characters, real length
    chars = sorted(list(set(text)))
    stoi = { ch:i for i,ch in enumerate(chars) }
    itos = { i:ch for i,ch in enumerate(chars) }
    
    # encoder: take a string, output a list of integers
    def encode(s: str) -> List[int]:
        return [stoi[c] for c in s]
    
    # decoder: take a list of integers, output a string
    def decode(x: List[int]) -> str:
        return ''.join([itos[i] for i in x]) 
    
    data = jnp.array(encode(text))
    n = int(0.9*len(data)) # first 90% will be train, rest val
    train_data = data[:n]
    test_data = data[n:]
    trainloader = DataLoader(
        CharDataset(train_data, context_size), batch_size, shuffle=True
    )
    testloader = DataLoader(
        CharDataset(test_data, context_size), batch_size, shuffle=True
    )

    return DataSpec(trainloader, testloader), len(chars), decode


# == wikitext
def wikitext103(batch_size):
    data = load_dataset("wikitext", name="wikitext-103-v1")
    train_data = data["train"].filter(
        lambda example: len(example["text"]) > 0 
    )
    test_data = data["test"].filter(
        lambda example: len(example["text"]) > 0 
    )
    tokenizer = Tokenizer.from_pretrained("bert-base-uncased")

    trainloader = DataLoader(
        train_data, batch_size, shuffle=True
    )
    testloader = DataLoader(
        test_data, batch_size, shuffle=True
    )
    
    return DataSpec(trainloader, testloader), tokenizer


DatasetsMap = {
    "shakespear": shakespear,
    "wiki": wikitext103,
}

# ---- model.py ----
import math

from flax import linen as nn
import jax
from jax import numpy as jnp


class MLP(nn.Module):
    h_dim: int
    output_dim: int

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(features=self.h_dim)(x) # TODO: bias? and below too
        x = nn.gelu(x)
        x = nn.Dense(features=self.output_dim)(x)
        # TODO: dropout

        return x


class Attention(nn.Module):
    n_embed: int  # output dim (head size)
    n_head: int
    training: bool = True
    dropout: float = 0.0

    def setup(self):
        self.kqv = nn.Dense(self.n_embed * 3, use_bias=False)
        self.attn_drop = nn.Dropout(rate=self.dropout, deterministic=not self.training)
        self.proj = nn.Dense(self.n_embed)
        self.final_drop = nn.Dropout(rate=self.dropout, deterministic=not self.training)

    def __call__(self, x):
        B, T, C = x.shape # batch size, context len, embedding dim
        # equally divided to 3 parts q k v, on the last axis
        q, k, v = jnp.split(self.kqv(x), 3, axis=2) # each shape: B, T, n_embed
        # multihead: process each n_embed in n_head parallelism
        head_size = self.n_embed // self.n_head
        q = jnp.transpose(
            jnp.reshape(q, (B, T, self.n_head, head_size)),
            axes=[0,2,1,3], # B, n_head, T, head_size
        )
        k = jnp.transpose(
            jnp.reshape(k, (B, T, self.n_head, head_size)),
            axes=[0,2,1,3],
        )
        v = jnp.transpose(
            jnp.reshape(v, (B, T, self.n_head, head_size)),
            axes=[0,2,1,3],
        )

        # B, n_head, T, T
        attn = jnp.matmul(q, jnp.transpose(k, axes=[0,1,3,2])) / math.sqrt(head_size)
        # decoder only, so triangle it
        mask = jnp.tril(jnp.ones_like(attn))
        attn = jnp.where(mask == 0, -jnp.inf, attn) # upper triangle  are all -inf
        attn = jax.nn.softmax(attn)
        attn = self.attn_drop(attn)

        y = jnp.matmul(attn, v) # B, n_head, T, n_embed
        # TODO: do we need contiguous? -> reshape order A F or C?
        y = jnp.reshape(jnp.transpose(y, [0,2,1,3]), (B, T, self.n_embed))
        y = self.final_drop(self.proj(y))

        return y


class HedgehogAttention(nn.Module):
    n_embed: int  # output dim (head size)
    n_head: int

    def setup(self):
        pass

    def __call__(self, x):
        pass


class Block(nn.Module):
    n_embed: int
    bias: bool
    n_head: int
    training: bool = True
    dropout: float = 0.0

    def setup(self):
        self.ln1 = nn.LayerNorm(use_bias=self.bias)
        self.attn = Attention(n_embed=self.n_embed, n_head=self.n_head, training=self.training, dropout=self.dropout)
        self.ln2 = nn.LayerNorm(use_bias=self.bias)
        self.mlp = MLP(h_dim = 4 * self.n_embed, output_dim=self.n_embed)

    def __call__(self, x):
        x = x + self.attn(self.ln1(x))
        x = x + self.mlp(self.ln2(x))
        return x

class NanoGpt(nn.Module):
    num_embeddings: int
    n_embed: int # embedding feature size
    context_len: int
    n_layer: int
    n_head: int
    bias: bool = False # bias in linear and layernorm
    training: bool = True
    dropout: float = 0.0

    def setup(self):
        self.token_embedding = nn.Embed(num_embeddings=self.num_embeddings, features=self.n_embed)
        self.positional_embedding = nn.Embed(num_embeddings=self.context_len, features=self.n_embed)
        self.blocks = [Block(n_embed=self.n_embed, bias=self.bias, n_head=self.n_head, training=self.training, dropout=self.dropout) for _ in range(self.n_layer)]
        self.ln_f = nn.LayerNorm(use_bias=self.bias)
        self.lm_head = nn.Dense(self.num_embeddings, use_bias=self.bias)

    def __call__(self, x):
        B, T = x.shape # batch size, context len
        tok_emb = self.token_embedding(x) # B, T, n_embed
        pos_emb = self.positional_embedding(jnp.arange(T)) # T, n_embed
        x = tok_emb + pos_emb
        for block in self.blocks:
            x = block(x)
        x = self.ln_f(x)
        x = self.lm_head(x) # B, T, vocab_size
        
        return x


# ---- train_skakespear.py ----
from typing import List
import logging

from flax import linen as nn
from flax.training import train_state
import jax
import jax.numpy as jnp
import optax
from tqdm import tqdm

# from model import NanoGpt  # scaffolding: defined above in this file
# from data import DatasetsMap  # scaffolding: defined above in this file

# TODO: setup so it's easy to switch between local run and cloud gpu run
num_epoch = 1  # scaffolding: 10 in the script
max_iter_per_epoch = 300
dataset_key = "shakespear"
batch_size = 16
context_len = 32
n_embed = 64 # head size
n_head = 4
n_layer = 4
learning_rate = 0.001
dropout = 0.0
# =====


_CALLS = [0]  # scaffolding


# TODO: should there be rng here??
def calculate_loss(state: train_state.TrainState, params, x, y, rng):
    logits = state.apply_fn(params, x, rngs = {"dropout": rng})
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    return loss

@jax.jit
def train_step(state: train_state.TrainState, x, y, drop_rng):
    grad_fn = jax.value_and_grad(
        calculate_loss,
        argnums=1,
    )
    loss, grads = grad_fn(state, state.params, x, y, drop_rng)
    state = state.apply_gradients(grads=grads)

    return state, loss


def train_shakespear(m: nn.Module, params, optimizer, rng, trainloader, testloader):
    state = train_state.TrainState.create(
        apply_fn=m.apply,
        params=params,
        tx=optimizer,
    )
    rng, drop_rng = jax.random.split(rng)
    for epoch in range(num_epoch):
        for batch_id, batch in enumerate(tqdm(trainloader)):
            x = jnp.array(batch[0])
            y = jnp.array(batch[1])
            state, loss = train_step(state, x, y, drop_rng)
            _CALLS[0] += 1  # scaffolding
            if batch_id > max_iter_per_epoch:
                break
        if epoch % 10 == 0 or True:
            rng, test_rng = jax.random.split(rng)
            test_batch = next(iter(testloader))
            x = jnp.array(test_batch[0])
            y = jnp.array(test_batch[1])
            val_loss = calculate_loss(state, state.params, x, y, test_rng)
            print(f"Step {epoch}: train loss: {loss}, val loss: {val_loss}")
    return state


def generate_shakespear(m, rng, params, decode, max_new_tokens=100):
    def _generate(m, key, params, idx, max_new_tokens: int):
        for i in range(max_new_tokens):
            context = idx[:, -context_len:] # max context len is block_size
            key, k = jax.random.split(key)
            logits = m.apply(params, context)[:,-1,:] # at the last token, B by vocab_size
            next_idx = jax.random.categorical(k, logits)
            idx = jnp.concat([idx, jnp.expand_dims(next_idx, axis=1)], axis=1)
        return idx
    context = jnp.zeros((1, 1), dtype=jnp.int32)
    rng, generate_key = jax.random.split(rng, 2)
    idx = _generate(m, generate_key, params, context, max_new_tokens=max_new_tokens)[0]
    print(decode(idx.tolist()))


def main():
    rng = jax.random.PRNGKey(42)
    rng, init_rng, dropout_rng, data_rng = jax.random.split(rng, 4)
    logging.info(f"loading data: {dataset_key}")
    data, num_embeddings, decode = DatasetsMap[dataset_key](batch_size, context_len)
    m = NanoGpt(
        num_embeddings=num_embeddings,
        n_embed=n_embed,
        context_len=context_len,
        n_layer=n_layer,
        n_head=n_head,
        training=True,
        dropout=dropout,
    )
    example_x, _ = next(iter(data.trainloader))  # these are np array
    params = m.init(
        {"params": init_rng, "dropout": dropout_rng},
        jnp.array(example_x),
    )
    num_params = sum(x.size for x in jax.tree.leaves(params))
    print(f"number of params: {num_params}")
    
    optimizer = optax.adamw(learning_rate=learning_rate)

    final_state = train_shakespear(m, params, optimizer, rng, data.trainloader, data.testloader)
    generate_shakespear(m, rng, final_state.params, decode, max_new_tokens=5)  # scaffolding: max_new_tokens=5 (default 100; eager, slow on CPU)

if __name__ == "__main__":
    try:  # scaffolding
        main()
        _report({"jit(train_step)"}, _CALLS[0])  # scaffolding
    except Exception as e:  # scaffolding
        print(f"ERROR {type(e).__name__}")  # scaffolding