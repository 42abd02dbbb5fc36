# source: https://github.com/misterpeddy/flax-llm/blob/a2543e6818ea7a10e1d6f19658f52f74579d5732/trainer.py
# expect: jit-in-loop-or-body at line 190
# runtime: COMPILES 16 CALLS 8
# why: Trainer.train calls the loss factory self.loss_fn(self.model) inside the step loop, and cross_entropy_loss defines a fresh @jax.jit closure each time, so every training step traces and compiles the loss (twice, under value_and_grad) again.

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
import os  # scaffolding
import tempfile  # scaffolding
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol, runtime_checkable

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax import linen as nn

FrozenDict = flax.core.FrozenDict


class wandb:  # scaffolding: stand-in for the wandb module (no run active)
    run = None


# --- models/utils.py ---
def cross_entropy_loss(model: nn.Module):
    """Computes cross entropy loss on model generation."""
    @jax.jit
    def _cross_entropy_loss(params: FrozenDict, inputs: jax.Array, targets: jax.Array):
        logits = model.apply(params, inputs)
        one_hot_targets = jax.nn.one_hot(targets, logits.shape[-1])
        return optax.softmax_cross_entropy(logits, one_hot_targets).mean()
    
    return _cross_entropy_loss


# --- models/bigram.py ---
class BigramLM(nn.Module):

    vocab_size: int

    @nn.compact
    def __call__(self, x: jax.Array) -> jax.Array:
        """Looks up x in a lookup table to assign log prob to each vocab element."""
        return nn.Embed(num_embeddings=self.vocab_size, features=self.vocab_size)(x)

# --- models/char_tokenizer.py ---
class Tokenizer:
    """Simple tokenizer for character-level language models."""

    def __init__(self, chars: list[str]):
        self._vocab_size = len(chars)
        self.chars = chars
        self.stoi = {ch: i for i, ch in enumerate(chars)}
        self.itos = {i: ch for i, ch in enumerate(chars)}
    
    @classmethod
    def from_text(cls, file_path: str) -> "Tokenizer":
        """Creates a tokenizer from a text file."""
        with open(file_path, "r", encoding="utf-8") as f:
            text = f.read()
        chars = sorted(list(set(text))) 
        return cls(chars)

    @property
    def vocab_size(self) -> int:
        return self._vocab_size
        
    def encode(self, s: str) -> list[int]:
        return [self.stoi[c] for c in s]

    def decode(self, l: list[int] | jax.Array) -> str:
        if isinstance(l, jax.Array):
            if l.ndim == 0:
                l = jnp.expand_dims(l, 0)
            l = jax.device_get(l)
        return "".join([self.itos[i] for i in l])


CharTokenizer = Tokenizer  # scaffolding: models.char_tokenizer.Tokenizer, shadowed by data.Tokenizer below


# --- data/data.py ---
@runtime_checkable
class Tokenizer(Protocol):
    def encode(self, s: str) -> list[int]:
        ...

    def decode(self, l: list[int] | jax.Array) -> str:
        ...

@dataclass
class Dataset:
    """Simple dataset iterator class."""
    data: jax.Array
    batch_size: int
    block_size: int
    loop: bool = field(default=True)

    def __post_init__(self):
        if self.data.ndim != 1:
            raise ValueError(f"Expected data to be 1D, got {self.data.ndim}D.")
        self.num_batches = self.data.shape[0] // (
            self.block_size * self.batch_size)
        self._batch_idx = 0

    @classmethod
    def from_file(cls, path: str, tokenizer: Tokenizer, **kwargs) -> "Dataset":
        """Creates a dataset from a text file."""
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
        data = jnp.array(tokenizer.encode(text))
        return cls(data, **kwargs)

    def __iter__(self) -> Iterator:
        return self

    def __next__(self) -> tuple[jax.Array, jax.Array]:
        if self._batch_idx >= self.num_batches:
            if self.loop:
                self._batch_idx = 0
            else:
                raise StopIteration
        start_idx = self._batch_idx * self.batch_size * self.block_size
        end_idx = (self._batch_idx + 1) * self.batch_size * self.block_size
        x = self.data[start_idx : end_idx].reshape(self.batch_size, self.block_size)
        y = self.data[start_idx + 1 : end_idx + 1].reshape(self.batch_size, self.block_size)
        self._batch_idx += 1
        return x, y


# --- trainer.py ---
@dataclass
class Trainer:
    model: Any
    num_steps: int
    seed: int
    batch_size: int
    block_size: int
    lr: float

    train_data_path: str

    tokenizer: Tokenizer
    loss_fn: Callable[[nn.Module], Callable] = cross_entropy_loss

    def train(self):
        rng_key = jax.random.PRNGKey(seed=self.seed)

        # Initialize model.
        params = self.model.init(rng_key, jnp.zeros(
            (self.batch_size, self.block_size), dtype=jnp.int32))

        # Initialize optimizer.
        optimizer = optax.adam(learning_rate=self.lr)
        optimizer_state = optimizer.init(params)

        # Initialize dataset.
        dataset = Dataset.from_file(self.train_data_path,
                                         tokenizer=self.tokenizer,
                                         batch_size=self.batch_size,
                                         block_size=self.block_size)

        # Run training loop.
        for i in range(self.num_steps):
            x, y = next(dataset)
            loss_fn = self.loss_fn(self.model)
            loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
            print(f"Step {i} | Loss: {loss:.3f}")
            if wandb.run is not None:
                wandb.log({"loss": loss}, step=i)
            updates, optimizer_state = optimizer.update(grads, optimizer_state)
            params = optax.apply_updates(params, updates)

        return self.model, params


# --- cfg/bigram.py + main.py (fiddle build replaced by a direct construction: scaffolding) ---
_path = os.path.join(tempfile.mkdtemp(), "shakespeare.txt")  # scaffolding: stand-in for data/shakespeare.txt
with open(_path, "w", encoding="utf-8") as _f:  # scaffolding
    _f.write("First Citizen:\nBefore we proceed any further, hear me speak.\n" * 20)  # scaffolding
tokenizer = CharTokenizer.from_text(_path)
trainer = Trainer(
    model=BigramLM(vocab_size=tokenizer.vocab_size),
    num_steps=8,  # scaffolding: 100 in cfg/bigram.py
    seed=42,
    batch_size=8,
    block_size=2,
    lr=1e-3,
    tokenizer=tokenizer,
    train_data_path=_path,
)
trainer.train()
_report({"jit(_cross_entropy_loss)"}, trainer.num_steps)
