# source: https://github.com/jingairpi/llm.jax/blob/bab3713c793f8029447285ae22c05a91b5cfdbc0/src/llm/trainer.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: train_step_fn is jitted with the flax model and self.compute_loss static (static_argnums=(3, 4)); a fresh bound method object is passed every step, but bound methods of the same instance hash and compare equal and the linen module hashes by its fields, so the step compiles once.

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
# src/llm/config.py
class GPT2Config:
    def __init__(
        self,
        vocab_size=50257,
        padded_vocab_size=50304,
        n_positions=1024,
        n_embd=768,
        n_layer=12,
        n_head=12,
    ):
        self.vocab_size = vocab_size  # vocabulary size
        self.padded_vocab_size = (
            padded_vocab_size  # padded to a multiple of 128 (e.g., 50304)
        )
        self.n_positions = n_positions  # maximum sequence length
        self.n_embd = n_embd  # embedding dimension (channels)
        self.n_layer = n_layer  # number of transformer blocks
        self.n_head = n_head  # number of attention heads


# src/llm/model.py
import math

import jax
import jax.numpy as jnp
from flax import linen as nn

# from .config import GPT2Config  (defined above)


class NewGELU(nn.Module):
    """
    GELU activation function with the exact GPT-2 approximation.
    """

    def __call__(self, x: jax.Array) -> jax.Array:
        return (
            0.5
            * x
            * (
                1.0
                + jnp.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * jnp.power(x, 3)))
            )
        )


class CausalSelfAttention(nn.Module):
    """
    Multi-head causal self-attention mechanism.
    """

    config: GPT2Config

    @nn.compact
    def __call__(self, x: jax.Array, deterministic: bool = True) -> jax.Array:
        B, T, C = x.shape  # Batch, Time, Channels
        n_head = self.config.n_head
        head_dim = C // n_head
        scale = 1.0 / jnp.sqrt(head_dim)

        # Combined projection for Q, K, V
        qkv = nn.Dense(
            3 * C,
            name="c_attn",
            kernel_init=nn.initializers.normal(stddev=0.02),
        )(
            x
        )  # (B, T, 3 * C)

        # Reshape and split into query, key, value: (B, T, 3, n_head, head_dim)
        qkv = qkv.reshape(B, T, 3, n_head, head_dim)
        q, k, v = jnp.split(qkv, 3, axis=2)
        q = jnp.squeeze(q, axis=2)  # (B, T, n_head, head_dim)
        k = jnp.squeeze(k, axis=2)
        v = jnp.squeeze(v, axis=2)

        # Compute attention scores
        att = jnp.einsum("bthd,bThd->bhtT", q, k) * scale  # (B, n_head, T, T)

        # Create causal mask and apply it
        mask = jnp.tril(jnp.ones((T, T))).reshape(1, 1, T, T)
        att = att * mask - 1e10 * (1 - mask)
        att = nn.softmax(att, axis=-1)

        # Weighted sum of values
        y = jnp.einsum("bhtT,bThd->bthd", att, v)  # (B, T, n_head, head_dim)
        y = y.reshape(B, T, C)  # Recombine heads

        # Output projection with scaled initialization
        scale_init = 0.02 / math.sqrt(2 * self.config.n_layer)
        y = nn.Dense(
            C,
            name="c_proj",
            kernel_init=nn.initializers.normal(stddev=scale_init),
        )(y)
        return y


class MLP(nn.Module):
    """
    GPT-2 MLP block.
    """

    config: GPT2Config

    @nn.compact
    def __call__(self, x: jax.Array, deterministic: bool = True) -> jax.Array:
        # First dense layer
        h = nn.Dense(
            4 * self.config.n_embd,
            name="c_fc",
            kernel_init=nn.initializers.normal(stddev=0.02),
        )(x)
        h = NewGELU()(h)
        # Second dense layer with scaled initialization
        scale_init = 0.02 / math.sqrt(2 * self.config.n_layer)
        h = nn.Dense(
            self.config.n_embd,
            name="c_proj",
            kernel_init=nn.initializers.normal(stddev=scale_init),
        )(h)
        return h


class Block(nn.Module):
    """
    A single transformer block with pre–layer normalization.
    """

    config: GPT2Config

    @nn.compact
    def __call__(self, x: jax.Array, deterministic: bool = True) -> jax.Array:
        # Self-attention sub-block
        sa_input = nn.LayerNorm(epsilon=1e-5, name="ln_1")(x)
        sa_output = CausalSelfAttention(self.config, name="attn")(
            sa_input, deterministic
        )
        x = x + sa_output

        # MLP sub-block
        mlp_input = nn.LayerNorm(epsilon=1e-5, name="ln_2")(x)
        mlp_output = MLP(self.config, name="mlp")(mlp_input, deterministic)
        x = x + mlp_output
        return x


class GPT2Model(nn.Module):
    """
    Full GPT-2 model with token & positional embeddings, transformer blocks, and output projection.
    """

    config: GPT2Config

    @nn.compact
    def __call__(self, input_ids: jax.Array, deterministic: bool = True) -> jax.Array:
        B, T = input_ids.shape
        C = self.config.n_embd

        # Token embeddings (with padded vocabulary size)
        wte = nn.Embed(
            num_embeddings=self.config.padded_vocab_size,
            features=C,
            name="wte",
            embedding_init=nn.initializers.normal(stddev=0.02),
        )
        # Positional embeddings as an embedding layer (to mirror PyTorch)
        wpe = nn.Embed(
            num_embeddings=self.config.n_positions,
            features=C,
            name="wpe",
            embedding_init=nn.initializers.normal(stddev=0.02),
        )
        tok_emb = wte(input_ids)  # (B, T, C)
        pos_ids = jnp.arange(T)[None, :]  # shape (1, T)
        pos_emb = wpe(pos_ids)  # (1, T, C)
        x = tok_emb + pos_emb  # broadcasting over batch

        # Transformer blocks
        for i in range(self.config.n_layer):
            x = Block(self.config, name=f"h.{i}")(x, deterministic=deterministic)

        # Final layer norm
        x = nn.LayerNorm(epsilon=1e-5, name="ln_f")(x)

        # Output projection with weight tying: use the first `vocab_size` rows of wte.embedding
        logits = x @ wte.embedding[: self.config.vocab_size, :].T
        return logits


# src/llm/data.py
import numpy as np


def load_binary_data(file_path):
    """
    Reads the tokenized dataset from a binary file.
    Returns a numpy array of integer token IDs.
    """
    with open(file_path, "rb") as f:
        data = np.fromfile(f, dtype=np.int32)
    return data


class DataLoader:
    """
    A simple DataLoader that reads tokenized text data from a binary file
    and yields (inputs, targets) batches. One complete pass through the data
    represents one epoch. If repeat is True, the loader cycles indefinitely.
    """

    def __init__(self, file_path, batch_size, seq_len, repeat=False):
        self.data = load_binary_data(file_path)
        self.batch_size = batch_size
        self.seq_len = seq_len
        self.repeat = repeat
        self.num_batches = len(self.data) // (batch_size * seq_len)
        self.current_batch = 0

    def __iter__(self):
        self.current_batch = 0
        return self

    def __next__(self):
        if self.current_batch >= self.num_batches:
            if self.repeat:
                self.reset()
            else:
                raise StopIteration
        start = self.current_batch * self.batch_size * self.seq_len
        end = (self.current_batch + 1) * self.batch_size * self.seq_len
        batch = self.data[start:end]
        self.current_batch += 1
        batch = batch.reshape(self.batch_size, self.seq_len).astype(np.int32)
        # For example, define inputs as all tokens except the last and targets as all tokens except the first.
        inputs = batch[:, :-1]
        targets = batch[:, 1:]
        return inputs, targets

    def reset(self):
        """
        Resets the DataLoader's internal batch counter so that iteration starts from the beginning.
        """
        self.current_batch = 0


# src/llm/trainer.py
import time

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


# Define a top-level, pure training step function.
def train_step_fn(state, batch, rng, model, compute_loss_fn):
    """
    Performs a single training step given the current state, a batch, and a PRNG key.
    Uses the provided model and loss function.
    """
    grad_fn = jax.value_and_grad(compute_loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(state.params, batch, rng)
    new_state = state.apply_gradients(grads=grads)
    return new_state, loss, logits


# JIT compile the training step function.
# We mark `model` and `compute_loss_fn` as static arguments since they are not arrays.
train_step_fn = jax.jit(train_step_fn, static_argnums=(3, 4))


class Trainer:
    def __init__(self, model, config, optimizer_config, dataset, rng):
        self.model = model
        self.config = config
        self.dataset = dataset  # Assume this is an iterable (e.g. a DataLoader)
        self.rng = rng

        # Initialize model parameters using a dummy input.
        dummy_input = jnp.ones(
            (optimizer_config["batch_size"], config.n_positions - 1), dtype=jnp.int32
        )
        params = model.init(rng, dummy_input)["params"]

        # Set up optimizer and training state.
        tx = optax.adamw(learning_rate=optimizer_config["learning_rate"])
        self.state = train_state.TrainState.create(
            apply_fn=model.apply, params=params, tx=tx
        )

    def compute_loss(self, params, batch, rng):
        inputs, targets = batch
        logits = self.model.apply(
            {"params": params}, inputs, deterministic=False, rngs={"dropout": rng}
        )
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, targets)
        return loss.mean(), logits

    def train_step(self, state, batch, rng):
        return train_step_fn(state, batch, rng, self.model, self.compute_loss)

    def train(self, num_steps):
        step = 0
        for batch in self.dataset:
            if step >= num_steps:
                break
            self.rng, step_rng = jax.random.split(self.rng)
            start_time = time.time()
            # Call the jitted top-level function.
            self.state, loss, logits = train_step_fn(
                self.state, batch, step_rng, self.model, self.compute_loss
            )
            elapsed = time.time() - start_time
            print(f"Step {step}: Loss = {loss:.4f}, Time = {elapsed*1000:.2f} ms")
            step += 1
        return self.state


# tests/test_trainer.py fixture and test, run as a script (scaffolding)
import os, tempfile  # scaffolding

tmp_path = tempfile.mkdtemp()  # scaffolding
file_path = os.path.join(tmp_path, "sample_train.bin")
data = np.arange(128, dtype=np.int32)
data.tofile(file_path)

config = GPT2Config(
    vocab_size=50257,  # usual vocab size
    n_positions=64,  # shorter positions for testing
    n_embd=32,  # smaller embedding dimension
    n_layer=1,  # one transformer block
    n_head=2,  # two attention heads
)
model = GPT2Model(config)
optimizer_config = {
    "learning_rate": 1e-3,
    "batch_size": 2,  # small batch size for testing.
}
batch_size = optimizer_config["batch_size"]
seq_len = 16
data_loader_instance = DataLoader(file_path, batch_size, seq_len)
rng = jax.random.PRNGKey(0)
trainer = Trainer(model, config, optimizer_config, data_loader_instance, rng)

num_steps = 3
trainer.train(num_steps)
_report({"jit(train_step_fn)"}, num_steps)
