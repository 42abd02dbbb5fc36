# source: https://github.com/Kingfish404/tinyGPT-jax/blob/656e7ec3353e7031c210fe32e53f8945c66aff2b/chat.py
# expect: shape-churn at line 85
# runtime: COMPILES 7 CALLS 40
# why: chat.py puts jit(model.apply) in the TrainState and generate feeds it idx[:, -block_size:], which grows by one token per step until it reaches block_size, so the jitted apply compiles again for every new context length (7 compiles for 40 calls).
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


# --- chat.py ---
_PROMPTS = ["It was the", "the age of wisdom", "exit"]  # scaffolding: typed prompts
import optax
import argparse
import jax
import jax.numpy as jnp

from rich import print
from rich.text import Text
from rich.panel import Panel
from rich.prompt import Prompt
from flax.training import checkpoints, train_state
from jax import jit
from jax.random import PRNGKey
from flax.training import checkpoints, train_state
# from model import tinyGPT, generate  # scaffolding: model.py inlined above
# from dataset import TextDataset  # scaffolding: dataset.py inlined above

dataset = TextDataset()
ckpt_dir = 'tmp/flax-checkpointing'
# ckpt = checkpoints.restore_checkpoint(ckpt_dir=ckpt_dir, target=None)  # scaffolding: no trained checkpoint here
config = {"block_size": 16, "lr": 1e-4, "model": {"n_embd": 32, "n_head": 4, "n_layer": 1, "dropout_rate": 0.1, "vocab_size": dataset.vocab_size}}  # scaffolding: train.py's config keys, small sizes
ckpt = {"model": {"params": tinyGPT(**config['model'], block_size=config['block_size']).init(PRNGKey(0), jnp.zeros((1, 4), jnp.int32))["params"]}}  # scaffolding: fresh params instead of the checkpoint
model = tinyGPT(
    **config['model'],
    block_size=config['block_size'],
)
optimizer = optax.adamw(config['lr'])
state = train_state.TrainState.create(
    apply_fn=jit(model.apply),
    params=ckpt['model']['params'],
    tx=optimizer)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reply-size", type=int, default=128)
    args = parser.parse_args(["--reply-size", "20"])  # scaffolding: 20 new tokens instead of the default 128
    reply_size = args.reply_size
    nextkey = PRNGKey(0)

    while True:
        prompt = _PROMPTS.pop(0)  # scaffolding: was Prompt.ask(">>> "); two prompts, then exit
        if prompt == "exit":
            break
        key, nextkey = jax.random.split(nextkey)
        idx = jnp.array([dataset.encode(prompt)])
        generated_tokens = generate(
            state, idx, max_new_token=reply_size,
            block_size=config['block_size'], key=key)
        generated_text = dataset.decode(generated_tokens[0].tolist())
        generated_text = Text(generated_text, style="green")
        print(Panel(generated_text, width=120, title="Reply"))


if __name__ == "__main__":
    main()
from builtins import print  # scaffolding: chat.py rebinds print to rich.print
_report({"jit(apply)"}, 40)  # scaffolding: 2 prompts x 20 new tokens
