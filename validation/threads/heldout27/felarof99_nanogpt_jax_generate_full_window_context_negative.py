# source: https://github.com/felarof99/nanoGPT-JAX-Flax-tf.data/blob/eb9ea8d32d626f385ce3052a7141ba5741fd0a0f/nanoGPT_jax3.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 30
# why: the generation loop pre-fills context with block_size tokens and always feeds context[:, -T:], so jax.jit(state.apply_fn) sees one shape and traces once; the single extra backend compile is the context turning from an uncommitted to a committed array after the first token, not a new shape.
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
# !pip install --upgrade tensorflow  # scaffolding: shell line
# cell 2
from typing import List, Dict, Mapping, Tuple
import numpy as np  # scaffolding: for the tf.data stand-in

import jax
import jax.numpy as jnp
import jax.random as jrand
import flax
import flax.linen as nn
from flax.training import train_state  # Useful dataclass to keep train state
import optax
# import tensorflow as tf  # scaffolding: tensorflow not installed
import pdb
import functools

def println(*args):
  for arg in args:
    print(arg)

# cell 3
# import jax.tools.colab_tpu  # scaffolding: Colab TPU setup
# jax.tools.colab_tpu.setup_tpu()  # scaffolding
jax.devices()
# cell 4
DEVICE_COUNT = len(jax.devices())
DEVICE_COUNT
# cell 5
import dataclasses

@dataclasses.dataclass
class Config:
    vocab_size: int = 66
    batch_size: int = 8  # scaffolding: 512 in the notebook
    block_size: int = 16  # scaffolding: 64
    n_embed: int = 32  # scaffolding: 256
    num_heads: int = 2  # scaffolding: 8
    num_layers: int = 1  # scaffolding: 6

config = Config()
# cell 6
# !wget https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt  # scaffolding: shell line
import os, tempfile, random as _r  # scaffolding
os.chdir(tempfile.mkdtemp())  # scaffolding: write the stand-in input.txt outside the repo
_chars = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ \n!$&',-.:;?3"); _r.seed(0)  # scaffolding: 66 distinct chars (config.vocab_size = 66)
open('input.txt', 'w').write(''.join(_chars) + ''.join(_r.choice(_chars) for _ in range(5000)))  # scaffolding: stand-in for tiny shakespeare
# cell 7
from dataclasses import dataclass
from typing import Dict, List, Mapping, Tuple

import jax
import jax.numpy as jnp
# import tensorflow as tf  # scaffolding
# import requests  # scaffolding: unused

# Below would result in a minibatch size of 32.
BATCH_SIZE = config.batch_size # how many independent sequences will we process in parallel?
BLOCK_SIZE = config.block_size # what is the maximum context length for predictions?

with open('input.txt', 'r', encoding='utf-8') as f:
    text = f.read()

# Create chars vocubulary using all the unique characters in the text.
chars = sorted(list(set(text)))
VOCAB_SIZE = len(chars)

# Create mapping from characters to integers.
stoi = {ch: i for i, ch in enumerate(chars)}

# Create reverse mapping from integers to characters.
itos = {i: ch for i, ch in enumerate(chars)}

# Create encode, decode function.
def encode(s: str, stoi: Mapping[str, int]) -> List[int]:
  return [stoi[c] for c in s]

def decode(tokens: List[int], itos: Mapping[int, str]) -> str:
  return ''.join([itos[i] for i in tokens])

println(encode("hii there", stoi), decode(encode("hii there", stoi), itos))

# Let's now split up the data into train and validation sets.
data = jnp.array(encode(text, stoi), dtype=jnp.int64)
n = int(0.9*len(data))
train_data = data[:n]
val_data = data[n:]
# cell 8
def create_dataset(training: bool = True):
  global train_data, val_data
  data = train_data if training else val_data
  # scaffolding: numpy stand-in for the tf.data pipeline (repeat, batch(BLOCK_SIZE+1), split, batch(BATCH_SIZE))
  data = np.asarray(data)  # scaffolding
  def _gen():  # scaffolding
    i = 0  # scaffolding
    while True:  # scaffolding
      xs, ys = [], []  # scaffolding
      for _ in range(BATCH_SIZE):  # scaffolding
        if i + BLOCK_SIZE + 1 > len(data): i = 0  # scaffolding
        chunk = data[i:i + BLOCK_SIZE + 1]; i += BLOCK_SIZE + 1  # scaffolding
        xs.append(chunk[:BLOCK_SIZE]); ys.append(chunk[1:])  # scaffolding
      yield np.stack(xs), np.stack(ys)  # scaffolding
  dataset = _gen()  # scaffolding
  return dataset

def get_batch(dataset):
  batch = next(dataset)
  return jnp.array(batch)
# cell 9
train_dataset = create_dataset(training=True)
val_dataset = create_dataset(training=False)
# cell 10
xb, yb = get_batch(train_dataset)
println("inputs", xb, "inputs shape", xb.shape)
println("targets", yb, "targets shape", yb.shape)
# for b in range(BATCH_SIZE): # batch dimension
#     for t in range(BLOCK_SIZE): # time dimension
#         context = xb[b, :t+1]
#         target = yb[b,t]
#         print(f"when input is {context.tolist()} the target: {target}")
# cell 11
from typing import List, Dict, Mapping, Tuple

import jax
import jax.numpy as jnp
import jax.random as jrand
import flax.linen as nn
from flax.training import train_state  # Useful dataclass to keep train state
import optax
# import tensorflow as tf  # scaffolding: tensorflow not installed
import pdb
import functools

class SingleHeadAttention(nn.Module):
  """Implements a simple SingleHeadAttention layer for a single example from batch."""

  head_size: int
  num_tokens: int
  dropout_rate: float = 0.2
  use_causal_mask: bool = True  # if True, only attend to past tokens.

  @nn.compact
  def __call__(self, tokens: jnp.array, training: bool):
    """Tokens, each with some channel dim."""
    # Use separate single dense layers for calculating keys, query, values
    keys = nn.Dense(self.head_size, use_bias=False)(tokens)
    queries = nn.Dense(self.head_size, use_bias=False)(tokens)
    values = nn.Dense(self.head_size, use_bias=False)(tokens)

    mask = (
        jnp.tril(jnp.ones(shape=(self.num_tokens, self.num_tokens)))
        if self.use_causal_mask
        else jnp.ones(shape=(self.num_tokens, self.num_tokens))
    )

    # compute attention score.
    # import pdb; pdb.set_trace()
    wei = jnp.dot(queries, keys.T) / jnp.sqrt(self.head_size)
    wei = jnp.where(mask == 0, -jnp.inf, wei)
    wei = nn.softmax(wei, axis=-1)

    attention_values = jnp.dot(
        wei, values
    )  # (num_tokens, num_tokens) * (num_tokens, head_size)
    attention_values = nn.Dropout(rate=self.dropout_rate, deterministic=True)(
        attention_values
    )
    return attention_values  # (num_tokens, head_size)


class MultiHeadAttention(nn.Module):
  """Implements a MultiHeadAttention layer for a single example from batch."""

  head_size: int
  num_heads: int
  num_tokens: int
  dropout_rate: float = 0.2

  def setup(self):
    self.heads = [
        SingleHeadAttention(
            head_size=self.head_size, num_tokens=self.num_tokens
        )
        for _ in range(self.num_heads)
    ]

    # Project concatenated output from all attention heads to final output
    # dimension, which is head_size * num_heads.
    self.projection = nn.Dense(features=self.num_heads * self.head_size)
    self.dropout = nn.Dropout(rate=self.dropout_rate, deterministic=True)

  def __call__(self, tokens: jnp.array, training: bool):
    output_from_each_head = []
    for h in self.heads:
      head_output = h(tokens, training)
      output_from_each_head.append(head_output)

    # Run multiple attention heads in parallel and concatenate
    # their output along channel dimension, i.e., dim==-1
    out_from_all_heads = jnp.concatenate(output_from_each_head, axis=-1)

    projection = self.projection(out_from_all_heads)
    return self.dropout(projection)

class FeedForward(nn.Module):
  output_size: int

  def setup(self):
    # Attention paper uses 4 times token_info_size when doing linear transformation
    # and then projects it back to token_info_size in linear transformation layer.
    self.ffwd = nn.Dense(features=4 * self.output_size)
    self.projection = nn.Dense(self.output_size)

  def __call__(self, x, training: bool):
    x = nn.relu(self.ffwd(x))
    x = self.projection(x)
    return x

class TransformerEncoderBlock(nn.Module):
  num_heads: int
  # output_size = head_size * num_heads, is the final embedding dimension you get after concatenating from all heads.
  output_size: int
  num_tokens: int

  def setup(self):
    # communication.
    # each single head will produce head_size worth of info for key, value, querie. You concatenate all of them to get the final output_size.
    self.head_size = self.output_size // self.num_heads
    self.self_attention_heads = MultiHeadAttention(num_heads=self.num_heads,
                                                   head_size = self.head_size,
                                                   num_tokens=self.num_tokens)

    # computation.
    self.computation_layer = FeedForward(output_size=self.output_size)

    self.ln1 = nn.LayerNorm()
    self.ln2 = nn.LayerNorm()

    self.dropout = nn.Dropout(rate=0.2, deterministic=True)

  def __call__(self, x, training: bool):
    # transformer encoder forward pass
    x = x + self.self_attention_heads(self.ln1(x), training)

    x = x + self.computation_layer(self.ln2(x), training)

    x = self.dropout(x)
    return x

class LanguageModel(nn.Module):
  """Reads one char and predicits the next char."""
  vocab_size: int # number of vocabulary (number of rows of embedding table)
  n_embed: int # embedding dim after lookup
  num_tokens: int # block size, i.e., number of tokens attention block is looking at once
  num_heads: int
  num_layers: int

  def setup(self):
    # number of channels you want to use for store info for each token.
    self.C = self.vocab_size

    self.token_embedding_table = nn.Embed(num_embeddings=self.vocab_size, features=self.n_embed)

    self.pos_embedding_table = nn.Embed(num_embeddings=self.num_tokens, features=self.n_embed)

    # Since, there are 4 heads, each head only needs to output token_info of size 8.
    # Concantenate token_info from all 4 heards, gives us 32
    self.blocks = [
        TransformerEncoderBlock(num_heads=self.num_heads,
                                output_size=self.n_embed,
                                num_tokens=self.num_tokens) for _ in range(self.num_layers)
    ]
    self.ln = nn.LayerNorm()
    self.lang_model_head = nn.Dense(features=self.C)

  def __call__(self, tokens: jnp.array, training: bool):
    """Accepts a block of tokens, like [0, 1, 2, 3, 4, 5, 6, 7]."""
    # tokens: (T, C)

    # generate emb for each token. output: (num_tokens, n_embed)
    token_embs = self.token_embedding_table(tokens)

    # generate position embs for each token.
    num_pos = tokens.shape[0]
    positions = jnp.arange(0, num_pos)
    pos_embs = self.pos_embedding_table(positions)

    # generate actual input to attention, x, which is sum of token_embs + pos_embs
    x = token_embs + pos_embs

    # feed x into self-attention head.
    # language model, forward pass, tokens
    for i in range(self.num_layers):
      x = self.blocks[i](x, training)

    x = self.ln(x)

    # generate logits for each token. output: (T, C)
    token_logits = self.lang_model_head(x)

    return token_logits


class LanguageModelBatch(nn.Module):
  """Extends MultiHeadAttention to work on a batch of data."""
  vocab_size: int # number of vocabulary (number of rows of embedding table)
  n_embed: int # embedding dim after lookup
  num_tokens: int # block size, i.e., number of tokens attention block is looking at once
  num_heads: int
  num_layers: int

  @nn.compact
  def __call__(self, tokens: jnp.array, training: bool):
    # tokens: (B, T, C)
    return jax.vmap(LanguageModel(
        vocab_size=self.vocab_size,
        n_embed=self.n_embed,
        num_tokens=self.num_tokens,
        num_heads=self.num_heads,
        num_layers=self.num_layers),
                    in_axes=(0, None),  # tokens, training
                    out_axes=(0),)(tokens, training)
# cell 12
def forward_pass(params, state, batch, training, rng):
  inputs, targets = batch
  logits = state.apply_fn({"params": params}, inputs, training, rngs={"dropout": rng})

  # logits: T, C
  # targets: T
  # logits predict each position
  loss = optax.softmax_cross_entropy_with_integer_labels(logits, targets)
  loss = loss.mean()
  return loss
# cell 13
def backward_pass(state, batch, training, rng):
  grad_fn = jax.value_and_grad(forward_pass, argnums=(0))
  loss, grads = grad_fn(state.params, state, batch, training, rng)

  state = state.apply_gradients(grads=grads)
  return state, loss
# cell 14
def backward_pass_pmap(state, batch, training, rng):
  grad_fn = jax.value_and_grad(forward_pass, argnums=(0))
  loss, grads = grad_fn(state.params, state, batch, training, rng)

  loss = jax.lax.pmean(loss, axis_name="devices")
  grads = jax.lax.pmean(grads, axis_name="devices")

  state = state.apply_gradients(grads=grads)
  return state, loss
# cell 15
def train_step(state, batch, training, rng):
  state, loss = backward_pass(state, batch, training, rng)
  return state, loss

train_step_pmap = jax.pmap(
    jax.jit(train_step), in_axes=(0, 0, None, 0), out_axes=(0), axis_name="devices")
# cell 16
def get_batch_pmap(dataset):
  inputs, targets = get_batch(dataset)
  inputs = inputs.reshape((jax.device_count(), -1, inputs.shape[-1]))
  targets = targets.reshape((jax.device_count(), -1, targets.shape[-1]))
  return inputs, targets

# cell 17
model = LanguageModelBatch(vocab_size=config.vocab_size,
                      n_embed=config.n_embed,
                      num_tokens=config.block_size,
                      num_heads=config.num_heads,
                      num_layers=config.num_layers)
# cell 18
inputs, targets = get_batch(train_dataset)
inputs.shape, targets.shape
# cell 19
inputsp, targetsp = get_batch_pmap(train_dataset)
inputsp.shape, targetsp.shape
# cell 20
output, params = model.init_with_output(jax.random.PRNGKey(99), inputs, training=False)
params = params["params"]

output.shape
# cell 21
opt = optax.adam(learning_rate=0.0001)
state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=opt)
# cell 22
states = jax.tree_util.tree_map(lambda x: jnp.stack([x] * len(jax.local_devices())), state)  # scaffolding: jax.device_put_replicated removed
# cell 23
backward_pass(state, get_batch(train_dataset), False, jax.random.PRNGKey(99))
# cell 24
states, loss = train_step_pmap(states, get_batch_pmap(train_dataset), False, jax.random.split(jax.random.PRNGKey(9),
                                                                                              num=DEVICE_COUNT))
# cell 25
rngs = jax.random.split(jax.random.PRNGKey(9), num=DEVICE_COUNT)
for step in range(3):  # scaffolding: 5000 steps in the notebook
  rngs = jax.random.split(rngs[0], num=DEVICE_COUNT)
  train_batch = get_batch_pmap(train_dataset)
  states, loss = train_step_pmap(states, train_batch, False, rngs)

  print("loss", loss[0], "step", step) if step%100==0 else None
# cell 26
T = config.block_size

state = jax.tree_util.tree_map(lambda x: x[0], states)  # scaffolding: jax.tree_map removed

state_apply_jit = jax.jit(state.apply_fn)

context = jnp.tile(jnp.array([52], dtype=jnp.int32), T)
context = context[None, -T:]
key = jrand.PRNGKey(999)

for _ in range(30):  # scaffolding: 1000 tokens in the notebook
  next_token_logits = state_apply_jit({"params": state.params}, context[:, -T:], False)

  key, split_key = jrand.split(key)
  new_token = jax.random.categorical(key, next_token_logits[:, -1, :], axis=-1, shape=(1, 1))

  context = jnp.concatenate([context, new_token], axis=1)
# cell 27
print(decode(context.tolist()[0], itos))
_report({"jit(apply)"}, 30)  # scaffolding: 30 generated tokens
