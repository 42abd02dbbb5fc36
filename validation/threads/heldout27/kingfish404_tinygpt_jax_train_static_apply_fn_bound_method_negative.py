# source: https://github.com/Kingfish404/tinyGPT-jax/blob/656e7ec3353e7031c210fe32e53f8945c66aff2b/train.py
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: loss_fn marks apply_fn static and gets state.apply_fn (the same bound model.apply every time, hashable and equal), and every batch has the same shape, so train and loss_fn compile once each for 6 calls.
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



# --- model.py ---
import jax
import jax.numpy as jnp
from tqdm import tqdm
from jax import Array
# from jax.random import KeyArray  # scaffolding: removed from jax
KeyArray = jax.Array  # scaffolding
from flax import linen as nn
from flax.training import train_state


class TransformerDecoder(nn.Module):
    n_head: int
    n_embd: int
    dropout_rate: float = 0.0

    @nn.compact
    def __call__(self, x: Array):
        mask = nn.make_causal_mask(jnp.ones((x.shape[0], x.shape[1])))
        x = x + \
            nn.SelfAttention(num_heads=self.n_head, dropout_rate=self.dropout_rate)(
                nn.LayerNorm()(x), mask=mask, deterministic=True)
        x = x + nn.Dense(features=self.n_embd)(nn.LayerNorm()(x))
        return x


class tinyGPT(nn.Module):
    n_layer: int
    n_head: int
    n_embd: int
    block_size: int
    vocab_size: int
    dropout_rate: float = 0.0

    @nn.compact
    def __call__(self, x: Array):
        tok_embd = nn.Embed(num_embeddings=self.vocab_size,
                            features=self.n_embd)(x)
        pos_embd = nn.Embed(num_embeddings=self.block_size,
                            features=self.n_embd)(jnp.arange(x.shape[1]))
        x = tok_embd + pos_embd
        x = nn.Sequential([
            TransformerDecoder(
                n_head=self.n_head,
                n_embd=self.n_embd,
                dropout_rate=self.dropout_rate, )
            for _ in range(self.n_layer)]
        )(x)
        x = nn.LayerNorm()(x)
        x = nn.Dense(features=self.vocab_size)(x)
        return x


def generate(state: train_state.TrainState, idx: Array, max_new_token: int, block_size: int, key: KeyArray):
    nextkey = key
    for _ in tqdm(range(max_new_token)):
        idx_cond = idx[:, -block_size:]
        logits = state.apply_fn({'params': state.params}, idx_cond)
        logits = jnp.array(logits)[:, -1, :]
        key, nextkey = jax.random.split(nextkey)
        next_token = jax.random.categorical(
            key, logits, axis=-1).reshape(-1, 1)
        idx = jnp.concatenate((idx, next_token), axis=-1)
    return idx


# --- dataset.py ---
_STAND_IN_TEXT = "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness. " * 20  # scaffolding: stand-in for the seven novels in data/
import jax
import jax.numpy as jnp
from os import path
from jax import Array
from jax.random import PRNGKey  # scaffolding: KeyArray removed from jax
KeyArray = jax.Array  # scaffolding


class TextDataset():

    def __init__(self, train_ratio=0.9, train_samples=100):
        text = ""
        base_path = 'data/'
        source = [
            # english
            'war-and-peace.txt',
            'the-hunchback-of-notre-dame.txt',
            'tiny-shakespeare.txt',
            # chinese
            'a-dream-of-red-mansions.txt',
            'water-margin.txt',
            'three-kingdoms.txt',
            'the-journey-to-the-west.txt',
        ]
        for s in source:
            # with open(path.join(base_path, s), 'r') as f:  # scaffolding: the novels are not in the repo
            #     text += f.read()  # scaffolding
            text += _STAND_IN_TEXT  # scaffolding

        chars = sorted(list(set(text)))
        self.vocab_size = len(chars)
        self.stoi = {c: i for i, c in enumerate(chars)}
        self.itos = {i: c for i, c in enumerate(chars)}
        self.chars = chars
        self.train_ratio = train_ratio
        self.train_samples = train_samples

        data = jnp.array(self.encode(text), dtype=jnp.int32)
        base_size = int((train_ratio * len(data)) // train_samples)
        eval_base_size = int((len(data)*(1-train_ratio)) // train_samples)
        self.train_data = jnp.concatenate([
            data[i:i + base_size]
            for i in range(0, len(data), len(data) // train_samples)
        ]).flatten()
        self.eval_data = jnp.concatenate([
            data[i + base_size:i + base_size + eval_base_size]
            for i in range(0, len(data), len(data) // train_samples)
        ]).flatten()
        del data

    def encode(self, x): return [self.stoi[c] for c in x]
    def decode(self, x): return ''.join([self.itos[c] for c in x])

    def get_batch(self, batch_size: int, block_size: int, key: KeyArray, type="train"):
        if type == "train":
            data = self.train_data
        else:
            data = self.eval_data
        idx = jax.random.randint(key, (batch_size,), 0, len(data) - block_size)
        batch = jnp.stack([data[i:i + block_size] for i in idx])
        y = jnp.stack([data[i + 1:i + block_size + 1] for i in idx])
        return batch, y


if False:  # scaffolding: was if __name__ == '__main__' (dataset.py run as a script)
    dataset = TextDataset(train_samples=10)
    print(dataset.vocab_size)
    print(dataset.train_data.shape)
    print(dataset.eval_data.shape)
    print("train data:")
    print(dataset.decode(dataset.train_data[:100].tolist()))
    print("eval data:")
    print(dataset.decode(dataset.eval_data[:100].tolist()))


# --- train.py ---
import os
import tempfile  # scaffolding
import shutil
import random
import jax
import jax.numpy as jnp
import optax
# import fire  # scaffolding: not installed; main() is called directly below
from tqdm import tqdm
from jax import jit, value_and_grad, Array
from jax.random import PRNGKey
from flax import linen as nn
from flax.training import checkpoints, train_state
# from model import tinyGPT, generate  # scaffolding: model.py inlined above
# from dataset import TextDataset  # scaffolding: dataset.py inlined above
from typing import Callable
from functools import partial


def main(
        epochs: int = 5000, lr: float = 1e-4, batch_size: int = 128,
        block_size: int = 128, n_embd: int = 512, n_head: int = 4, n_layer: int = 4,
        dropout_rate: float = 0.1,
        train_ratio: float = 0.9, train_samples: int = 100, eval_every: int = 100):
    dataset = TextDataset(train_ratio=train_ratio, train_samples=train_samples)
    config = {
        "train_ratio": dataset.train_ratio,
        "train_samples": dataset.train_samples,
        "batch_size": batch_size,
        "epochs": epochs,
        "eval_every": eval_every,
        "lr": lr,
        "block_size": block_size,
        "model": {
            "n_embd": n_embd,
            "n_head": n_head,
            "n_layer": n_layer,
            "dropout_rate": dropout_rate,
            "vocab_size": dataset.vocab_size,
        }
    }

    nextkey = PRNGKey(random.randint(0, 1024))
    key, nextkey = jax.random.split(nextkey)
    optimizer = optax.adamw(config['lr'])
    model = tinyGPT(
        **config['model'],
        block_size=config['block_size'],
    )
    x1, y1 = dataset.get_batch(
        batch_size=config['batch_size'], block_size=config['block_size'], key=key)
    params = model.init(key, x1)

    state = train_state.TrainState.create(
        apply_fn=model.apply,
        params=params['params'],
        tx=optimizer)

    print(model.tabulate(key, x1))
    ckpt_dir = os.path.join(tempfile.mkdtemp(), 'tmp/flax-checkpointing')  # scaffolding: was 'tmp/flax-checkpointing' in the working directory
    if os.path.exists(ckpt_dir):
        shutil.rmtree(ckpt_dir)

    @partial(jit, static_argnames=('apply_fn',))
    def loss_fn(params, batch, y, apply_fn: Callable):
        logits = apply_fn({'params': params}, batch)
        loss = optax.softmax_cross_entropy(
            logits, nn.one_hot(y, config['model']['vocab_size']))
        return loss.mean()

    @jit
    def train(state: train_state.TrainState, batch: Array, y: Array):

        loss, grads = value_and_grad(loss_fn)(
            state.params, batch, y, apply_fn=state.apply_fn)
        state = state.apply_gradients(grads=grads)
        return state, loss

    for i in tqdm(range(config['epochs'])):
        key, nextkey = jax.random.split(nextkey)
        batch, y = dataset.get_batch(batch_size=config['batch_size'],
                                     block_size=config['block_size'], key=key)

        state, train_loss = train(
            state=state, batch=batch, y=y)

        if i % config['eval_every'] == 0:
            ckpt = {'model': state, 'config': config, 'data': [x1]}
            checkpoints.save_checkpoint(ckpt_dir=ckpt_dir,
                                        target=ckpt,
                                        step=i,
                                        overwrite=False,
                                        keep=2)

            batch, y = dataset.get_batch(type='eval', batch_size=config['batch_size'],
                                         block_size=config['block_size'], key=key)
            eval_loss = loss_fn(state.params, batch, y,
                                apply_fn=state.apply_fn)
            logits = state.apply_fn({'params': state.params}, batch)
            next_token = jax.random.categorical(
                key, jnp.array(logits), axis=-1)
            print("\ntrain loss: %s, eval loss: %s" % (train_loss, eval_loss))
            print("encode: {%s}\ndecode: {%s}" %
                  (dataset.decode(batch[0].tolist()), dataset.decode(next_token[0].tolist())))

    if False:
        key, nextkey = jax.random.split(nextkey)
        print("decode full: {%s}" % dataset.decode(
            generate(
                state, jnp.zeros((1, 1), dtype=jnp.int32),
                128, block_size=config['block_size'], key=key)[0].tolist()))


if __name__ == '__main__':
    # fire.Fire(main)  # scaffolding
    main(epochs=4, batch_size=4, block_size=16, n_embd=32, n_head=4, n_layer=1, eval_every=2)  # scaffolding: command-line flags, small sizes
_report({"jit(train)", "jit(loss_fn)"}, 6)  # scaffolding: 4 train steps + 2 eval loss_fn calls
