# source: https://github.com/cksajil/mini-gpt-jax-stories/blob/a51abbfc1b616da09f3c0fd2d60bf32b792deae9/noteboooks/gpt-mini-jax.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 8
# why: The Kaggle notebook batches with idx[start:start + batch_size] but loops over range(0, n - batch_size + 1, batch_size), so the remainder is dropped and every batch has the same shape; nnx.jit train_step and eval_step each compile once: 2 compiles for 8 calls.

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
N_CALLS = []  # scaffolding
# cell 1
# Uncomment only if needed.
# !pip install -q flax optax orbax-checkpoint tiktoken

import os
import time
import math
import json
import shutil
from pathlib import Path

# (JAX_COMPILATION_CACHE_DIR under /kaggle/working removed: scaffolding)

import numpy as np
import jax
import jax.numpy as jnp
import optax
import flax.nnx as nnx
import tempfile  # scaffolding
# cell 3
# scaffolding: the Kaggle dataset/output paths are replaced by a temporary directory
WORKDIR = Path(tempfile.mkdtemp())  # scaffolding
TOKEN_CACHE_DIR = WORKDIR / "token_cache"
TOKEN_CACHE_DIR.mkdir(parents=True, exist_ok=True)
# cell 5
MAX_TRAIN_STORIES = 200_000
MAX_VALID_STORIES = 10_000

NUM_EPOCHS = 2  # scaffolding: 15 in the notebook
LEARNING_RATE = 3e-4
WEIGHT_DECAY = 0.01
WARMUP_FRAC = 0.1
GRAD_CLIP_NORM = 1.0
SEED = 42
# cell 6
BATCH_SIZE = 32
EMBED_DIM = 48  # scaffolding: 192 in the notebook
NUM_LAYERS = 1  # scaffolding: 6 in the notebook
MAX_LEN = 32  # scaffolding: 128 in the notebook
NUM_HEADS = 6
# cell 8
VOCAB_NAME = "gpt2"
MLP_DIM = 4 * EMBED_DIM
DROPOUT_RATE = 0.0  # keep 0.0 for a simple fast Kaggle demo

# Mixed precision
PARAM_DTYPE = jnp.float32
COMPUTE_DTYPE = jnp.bfloat16  # if unstable on your runtime, switch to jnp.float32
# cell 10
# scaffolding: the TinyStories CSVs are not available; 100 train / 40 valid stand-in stories
train_stories = [f"Once upon a time there was a cat number {i}." for i in range(100)][:MAX_TRAIN_STORIES]  # scaffolding
valid_stories = [f"One day a dog number {i} went to the park." for i in range(40)][:MAX_VALID_STORIES]  # scaffolding

print(f"Using {len(train_stories):,} train stories")
print(f"Using {len(valid_stories):,} valid stories")
# cell 12
class _CharTokenizer:  # scaffolding: tiktoken gpt2 stand-in with a 257-token vocabulary
    n_vocab = 257

    def encode(self, text, allowed_special=()):
        if text == "<|endoftext|>":
            return [256]
        return [ord(c) % 256 for c in text]

    def decode(self, ids):
        return "".join(chr(i) for i in ids if i < 256)


tokenizer = _CharTokenizer()  # scaffolding
VOCAB_SIZE = tokenizer.n_vocab

EOT_ID = tokenizer.encode(
    "<|endoftext|>",
    allowed_special={"<|endoftext|>"}
)[0]

PAD_ID = 0  # keep simple; your old notebook already used 0-padding

print("VOCAB_SIZE:", VOCAB_SIZE)
print("EOT_ID:", EOT_ID)
# cell 13
def encode_story_fixed(text: str, max_len: int, tokenizer, eot_id: int):
    """
    Encode one story into fixed-length token ids.
    Returns np.uint16 array of shape [max_len].
    """
    ids = tokenizer.encode(text, allowed_special={"<|endoftext|>"})
    ids = ids[: max_len - 1]          # reserve one slot for EOT
    ids.append(eot_id)

    arr = np.full((max_len,), PAD_ID, dtype=np.uint16)
    arr[:len(ids)] = np.asarray(ids, dtype=np.uint16)
    return arr
# cell 14
def build_or_load_token_cache(
    stories,
    split_name: str,
    max_len: int,
    tokenizer,
    eot_id: int,
):
    token_file = TOKEN_CACHE_DIR / f"{split_name}_tokens_{len(stories)}_{max_len}.npy"

    if token_file.exists():
        print(f"Loading cached tokens from {token_file}")
        tokens = np.load(token_file, mmap_mode="r")
        return tokens, token_file

    print(f"Pretokenizing {split_name} stories...")
    start = time.time()

    arr = np.empty((len(stories), max_len), dtype=np.uint16)
    for i, story in enumerate(stories):
        arr[i] = encode_story_fixed(story, max_len, tokenizer, eot_id)
        if (i + 1) % 20000 == 0:
            print(f"  processed {i + 1:,}/{len(stories):,}")

    np.save(token_file, arr)
    elapsed = time.time() - start
    print(f"Saved token cache: {token_file}")
    print(f"Pretokenization time: {elapsed:.1f} sec")

    tokens = np.load(token_file, mmap_mode="r")
    return tokens, token_file
# cell 15
train_tokens, train_token_file = build_or_load_token_cache(
    train_stories, "train", MAX_LEN, tokenizer, EOT_ID
)

valid_tokens, valid_token_file = build_or_load_token_cache(
    valid_stories, "valid", MAX_LEN, tokenizer, EOT_ID
)

print("train_tokens shape:", train_tokens.shape, train_tokens.dtype)
print("valid_tokens shape:", valid_tokens.shape, valid_tokens.dtype)
# cell 17
def batch_iterator(token_array, batch_size, shuffle=True, seed=42):
    """
    token_array: shape [N, T], memory-mapped or ndarray
    yields:
      x: [B, T]
      y: [B, T]
    """
    n = len(token_array)
    idx = np.arange(n)

    rng = np.random.default_rng(seed)
    if shuffle:
        rng.shuffle(idx)

    for start in range(0, n - batch_size + 1, batch_size):
        batch_idx = idx[start:start + batch_size]
        x = np.asarray(token_array[batch_idx], dtype=np.int32)

        y = np.full_like(x, PAD_ID, dtype=np.int32)
        y[:, :-1] = x[:, 1:]
        y[:, -1] = PAD_ID

        yield x, y
# cell 18
class CausalSelfAttention(nnx.Module):
    def __init__(self, embed_dim, num_heads, *, rngs):
        self.attn = nnx.MultiHeadAttention(
            num_heads=num_heads,
            in_features=embed_dim,
            qkv_features=embed_dim,
            out_features=embed_dim,
            decode=False,
            rngs=rngs,
        )

    def __call__(self, x, mask=None):
        return self.attn(x, mask=mask)
# cell 19
class MLP(nnx.Module):
    def __init__(self, embed_dim, mlp_dim, *, rngs):
        self.fc1 = nnx.Linear(embed_dim, mlp_dim, rngs=rngs)
        self.fc2 = nnx.Linear(mlp_dim, embed_dim, rngs=rngs)

    def __call__(self, x):
        x = self.fc1(x)
        x = jax.nn.gelu(x)
        x = self.fc2(x)
        return x
# cell 20
class TransformerBlock(nnx.Module):
    def __init__(self, embed_dim, num_heads, mlp_dim, *, rngs):
        self.ln1 = nnx.LayerNorm(embed_dim, rngs=rngs)
        self.attn = CausalSelfAttention(embed_dim, num_heads, rngs=rngs)
        self.ln2 = nnx.LayerNorm(embed_dim, rngs=rngs)
        self.mlp = MLP(embed_dim, mlp_dim, rngs=rngs)

    def __call__(self, x, mask=None):
        x = x + self.attn(self.ln1(x), mask=mask)
        x = x + self.mlp(self.ln2(x))
        return x
# cell 21
class TokenAndPositionEmbedding(nnx.Module):
    def __init__(self, max_len, vocab_size, embed_dim, *, rngs):
        self.token_emb = nnx.Embed(vocab_size, embed_dim, rngs=rngs)
        self.pos_emb = nnx.Embed(max_len, embed_dim, rngs=rngs)
        self.max_len = max_len

    def __call__(self, token_ids):
        seq_len = token_ids.shape[1]
        positions = jnp.arange(seq_len)[None, :]
        return self.token_emb(token_ids) + self.pos_emb(positions)
# cell 23
class MiniGPT(nnx.Module):
    def __init__(
        self,
        max_len,
        vocab_size,
        embed_dim,
        num_heads,
        mlp_dim,
        num_layers,
        *,
        rngs
    ):
        self.max_len = max_len
        self.vocab_size = vocab_size

        self.embedding = TokenAndPositionEmbedding(
            max_len=max_len,
            vocab_size=vocab_size,
            embed_dim=embed_dim,
            rngs=rngs,
        )

        self.blocks = nnx.List([  # scaffolding: nnx.List wrapper needed by flax 0.12.8
            TransformerBlock(
                embed_dim=embed_dim,
                num_heads=num_heads,
                mlp_dim=mlp_dim,
                rngs=rngs,
            )
            for _ in range(num_layers)
        ])

        self.ln_f = nnx.LayerNorm(embed_dim, rngs=rngs)
        self.lm_head = nnx.Linear(embed_dim, vocab_size, use_bias=False, rngs=rngs)

    def causal_attention_mask(self, seq_len):
        # shape [1, 1, T, T] often works nicely for attention broadcasting
        mask = jnp.tril(jnp.ones((seq_len, seq_len), dtype=jnp.bool_))
        return mask[None, None, :, :]

    def __call__(self, token_ids):
        seq_len = token_ids.shape[1]
        mask = self.causal_attention_mask(seq_len)

        x = self.embedding(token_ids)
        for block in self.blocks:
            x = block(x, mask=mask)

        x = self.ln_f(x)
        logits = self.lm_head(x)
        return logits
# cell 24
rngs = nnx.Rngs(SEED)

model = MiniGPT(
    max_len=MAX_LEN,
    vocab_size=VOCAB_SIZE,
    embed_dim=EMBED_DIM,
    num_heads=NUM_HEADS,
    mlp_dim=MLP_DIM,
    num_layers=NUM_LAYERS,
    rngs=rngs,
)

steps_per_epoch = len(train_tokens) // BATCH_SIZE
total_steps = steps_per_epoch * NUM_EPOCHS
warmup_steps = max(1, int(WARMUP_FRAC * total_steps))

print("steps_per_epoch:", steps_per_epoch)
print("total_steps:", total_steps)
print("warmup_steps:", warmup_steps)
# cell 25
lr_schedule = optax.warmup_cosine_decay_schedule(
    init_value=0.0,
    peak_value=LEARNING_RATE,
    warmup_steps=warmup_steps,
    decay_steps=total_steps,
    end_value=1e-5,
)

tx = optax.chain(
    optax.clip_by_global_norm(GRAD_CLIP_NORM),
    optax.adamw(learning_rate=lr_schedule, weight_decay=WEIGHT_DECAY),
)

optimizer = nnx.ModelAndOptimizer(model, tx)
# cell 27
def cross_entropy_loss(logits, labels):
    """
    logits: [B, T, V]
    labels: [B, T]
    """
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    return loss.mean()
# cell 28
@nnx.jit(donate_argnames=("model", "optimizer"))
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        logits = model(x)
        loss = cross_entropy_loss(logits, y)
        return loss

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(grads)
    return loss
# cell 29
@nnx.jit
def eval_step(model, x, y):
    logits = model(x)
    loss = cross_entropy_loss(logits, y)
    return loss
# cell 33
history = {
    "train_loss": [],
    "valid_loss": [],
    "tokens_per_sec": [],
    "step_time_sec": [],
}

global_step = 0
best_valid_loss = float("inf")
# cell 34
def run_validation(model, valid_tokens, batch_size, max_batches=100):
    losses = []

    for i, (x_np, y_np) in enumerate(batch_iterator(valid_tokens, batch_size, shuffle=False, seed=SEED)):
        x = jnp.asarray(x_np)
        y = jnp.asarray(y_np)
        loss = eval_step(model, x, y)
        N_CALLS.append(1)  # scaffolding
        losses.append(float(loss))
        if i + 1 >= max_batches:
            break

    return float(np.mean(losses)) if losses else float("nan")
# cell 35
for epoch in range(NUM_EPOCHS):
    epoch_start = time.time()

    running_loss = 0.0
    running_steps = 0

    # different seed each epoch for shuffle
    train_iter = batch_iterator(
        train_tokens,
        batch_size=BATCH_SIZE,
        shuffle=True,
        seed=SEED + epoch
    )

    for step, (x_np, y_np) in enumerate(train_iter, start=1):
        step_start = time.time()

        x = jnp.asarray(x_np)
        y = jnp.asarray(y_np)

        loss = train_step(model, optimizer, x, y)
        N_CALLS.append(1)  # scaffolding

        # force sync for accurate timing
        loss_value = float(loss)
        step_time = time.time() - step_start

        tokens_this_step = x_np.size
        tok_per_sec = tokens_this_step / max(step_time, 1e-8)

        running_loss += loss_value
        running_steps += 1
        global_step += 1

        history["step_time_sec"].append(step_time)
        history["tokens_per_sec"].append(tok_per_sec)

        if step % 100 == 0:
            avg_loss = running_loss / running_steps
            current_lr = float(lr_schedule(global_step - 1))
            print(
                f"epoch={epoch+1} step={step}/{steps_per_epoch} "
                f"global_step={global_step} "
                f"loss={avg_loss:.4f} "
                f"lr={current_lr:.2e} "
                f"tok/s={tok_per_sec:,.0f} "
                f"step_time={step_time:.3f}s"
            )

    train_epoch_loss = running_loss / max(running_steps, 1)
    valid_loss = run_validation(model, valid_tokens, BATCH_SIZE, max_batches=50)

    history["train_loss"].append(train_epoch_loss)
    history["valid_loss"].append(valid_loss)

    epoch_time = time.time() - epoch_start
    print(
        f"\nEpoch {epoch+1} done | "
        f"train_loss={train_epoch_loss:.4f} | "
        f"valid_loss={valid_loss:.4f} | "
        f"time={epoch_time/60:.2f} min"
    )

    # save best checkpoint
    if valid_loss < best_valid_loss:
        best_valid_loss = valid_loss
        # (orbax checkpoint save removed: scaffolding)
# (cells 31 and 37-46: text generation, plots, checkpoint restore/export removed: scaffolding)
_report({"jit(train_step)", "jit(eval_step)"}, len(N_CALLS))  # scaffolding
