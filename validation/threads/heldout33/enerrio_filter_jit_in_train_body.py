# source: https://github.com/enerrio/jax-transformer/blob/65864e45089ec9cee031a22f0a26bfbf0065fe45/transformer/train.py
# expect: none
# runtime: COMPILES 1 CALLS 60
# why: train_step is an eqx.filter_jit defined inside train(), which looks like a jit rebuilt per call, but train() runs once and the torch DataLoader uses drop_last=True, so all epochs share one compile.

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
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr
import numpy as np  # scaffolding
import optax
from jaxtyping import Array, Int, Float, Key, PyTree, Scalar
from torch.utils.data import DataLoader, Dataset


# transformer/data.py
class GPTDatasetV1(Dataset):
    def __init__(
        self, text: str, tokenizer, max_length: int, stride: int
    ) -> None:
        super().__init__()
        self.input_ids = []
        self.target_ids = []

        token_ids = tokenizer.encode(text)

        # Create dataset
        for i in range(0, len(token_ids) - max_length, stride):
            input_chunk = token_ids[i : i + max_length]
            target_chunk = token_ids[i + 1 : i + 1 + max_length]
            self.input_ids.append(input_chunk)
            self.target_ids.append(target_chunk)

    def __getitem__(self, index: int) -> tuple[list[int], list[int]]:
        return self.input_ids[index], self.target_ids[index]

    def __len__(self) -> int:
        return len(self.input_ids)


def collate_fn(
    batch: list[tuple[list[int], list[int]]]
) -> tuple[Int[Array, "batch seq_len"], Int[Array, "batch seq_len"]]:
    """Convert tensors to Jax arrays."""
    input_batch, target_batch = zip(*batch)
    input_array = jnp.array(input_batch)
    target_array = jnp.array(target_batch)
    return input_array, target_array


def create_dataloader(
    text: str,
    tokenizer,
    batch_size: int = 4,
    max_length: int = 256,
    stride: int = 128,
    shuffle: bool = True,
    drop_last: bool = True,
    num_workers: int = 0,
) -> DataLoader:
    """Tokenize raw text data and create dataloader."""
    dataset = GPTDatasetV1(text, tokenizer, max_length, stride)
    dataloader = DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=shuffle,
        drop_last=drop_last,
        num_workers=num_workers,
        collate_fn=collate_fn,
    )
    return dataloader


# transformer/train.py (rich progress bars cut)
def train(
    model: eqx.Module,
    optim: optax.GradientTransformation,
    train_dataloader: DataLoader,
    val_dataloader: DataLoader,
    key: Key[Array, ""],
    num_epochs: int,
) -> tuple[eqx.Module, dict[str, list[float | Float[Array, ""]]]]:
    """Train the model."""
    opt_state = optim.init(eqx.filter(model, eqx.is_array))

    @eqx.filter_jit
    def train_step(
        model: eqx.Module,
        opt_state: PyTree,
        x: Int[Array, "batch seq_len"],
        y: Int[Array, "batch seq_len"],
        keys: Key[Array, " batch"],
    ) -> tuple[eqx.Module, PyTree, Scalar]:
        """Single training step for a batch of data. Forward pass, compute loss/grads, update weights."""

        def loss_fn(
            model: eqx.Module,
            x: Int[Array, "batch seq_len"],
            y: Int[Array, "batch seq_len"],
            keys: Key[Array, " batch"],
        ) -> Scalar:
            """Forward pass of model and compute loss."""
            logits = jax.vmap(model, in_axes=(0, None, 0))(x, False, keys)
            loss = optax.losses.softmax_cross_entropy_with_integer_labels(logits, y)
            return loss.mean()

        loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y, keys)
        updates, opt_state = optim.update(
            grads, opt_state, eqx.filter(model, eqx.is_array)
        )
        model = eqx.apply_updates(model, updates)
        return model, opt_state, loss

    train_stats = {"train_loss": [], "val_loss": [], "tokens_seen": []}
    for i in range(num_epochs):
        train_epoch_loss = val_epoch_loss = tokens_seen = 0.0
        # train phase
        for x_batch, y_batch in train_dataloader:
            key, *subkeys = jr.split(key, train_dataloader.batch_size + 1)
            subkeys = jnp.array(subkeys)
            model, opt_state, loss = train_step(
                model, opt_state, x_batch, y_batch, subkeys
            )
            train_epoch_loss += loss
            tokens_seen += x_batch.size
        train_stats["train_loss"].append(train_epoch_loss / len(train_dataloader))
        train_stats["tokens_seen"].append(tokens_seen)
    return model, train_stats


class TinyGPT(eqx.Module):  # scaffolding: stand-in for transformer.model.GPTModel (same call signature)
    emb: eqx.nn.Embedding
    out: eqx.nn.Linear

    def __init__(self, vocab, dim, key):
        k1, k2 = jr.split(key)
        self.emb = eqx.nn.Embedding(vocab, dim, key=k1)
        self.out = eqx.nn.Linear(dim, vocab, key=k2)

    def __call__(self, x, inference=False, key=None):
        return jax.vmap(self.out)(jax.vmap(self.emb)(x))


class _Tok:  # scaffolding: stand-in for tiktoken (not installed)
    def encode(self, text):
        return [ord(c) % 64 for c in text]


text = "".join(np.random.default_rng(0).choice(list("abcdefgh "), size=1000))  # scaffolding: stand-in corpus
train_dataloader = create_dataloader(text, _Tok(), batch_size=4, max_length=16, stride=8)  # 123 windows, drop_last=True
model = TinyGPT(64, 16, jr.key(21))  # scaffolding
optim = optax.adamw(learning_rate=0.0004, weight_decay=0.1)
model, stats = train(model, optim, train_dataloader, None, jr.key(0), num_epochs=2)
_report({"jit(train_step)"}, 2 * len(train_dataloader))  # scaffolding
