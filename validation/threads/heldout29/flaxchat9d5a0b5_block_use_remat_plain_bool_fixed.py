# source: https://github.com/mlnomadpy/flaxchat/commit/9d5a0b51a617151ad74d79def3f2702a95134dc9
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the commit stores use_remat as a plain Python attribute, which nnx keeps static, so the if in Block.__call__ sees a bool and train_step compiles once for 3 steps.
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



import os
import time
import math
from functools import partial
from dataclasses import dataclass, field, asdict
from typing import Optional

import numpy as np
import jax
import jax.numpy as jnp
from flax import nnx
import optax


# ---- flaxchat/config.py ----
@dataclass(frozen=True)
class GPTConfig:
    """Model architecture config — mirrors nanochat exactly."""
    sequence_len: int = 2048
    vocab_size: int = 32768
    n_layer: int = 12
    n_head: int = 6
    n_kv_head: int = 6
    n_embd: int = 768
    window_pattern: str = "SSSL"


# Register GPTConfig as a JAX pytree with all-static fields
# This lets nnx.data(GPTConfig(...)) work inside JIT
jax.tree_util.register_static(GPTConfig)


# ---- flaxchat/common.py ----
COMPUTE_DTYPE = jnp.float32  # scaffolding: _detect_compute_dtype() picks float32 on CPU


def print0(s="", **kwargs):
    if jax.process_index() == 0:
        print(s, **kwargs)


# ---- flaxchat/gpt.py ----
# Compat: nnx.List/Dict exist in Flax 0.12+, plain list/dict work in 0.11
_NNX_LIST = getattr(nnx, 'List', list)
_NNX_DICT = getattr(nnx, 'Dict', dict)


# ---------------------------------------------------------------------------
# RMSNorm (parameterless, like nanochat)
# ---------------------------------------------------------------------------
def rms_norm(x):
    """Parameterless RMS normalization, runs in compute dtype."""
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)


# ---------------------------------------------------------------------------
# Rotary Embeddings
# ---------------------------------------------------------------------------
def precompute_rotary_embeddings(seq_len: int, head_dim: int, base: float = 100000.0):
    """Precompute cos/sin for RoPE. Returns (cos, sin) of shape (1, seq_len, 1, head_dim//2)."""
    channel_range = jnp.arange(0, head_dim, 2, dtype=jnp.float32)
    inv_freq = 1.0 / (base ** (channel_range / head_dim))
    t = jnp.arange(seq_len, dtype=jnp.float32)
    freqs = jnp.outer(t, inv_freq)
    cos = jnp.cos(freqs).astype(COMPUTE_DTYPE)
    sin = jnp.sin(freqs).astype(COMPUTE_DTYPE)
    cos = cos[None, :, None, :]
    sin = sin[None, :, None, :]
    return cos, sin


def apply_rotary_emb(x, cos, sin):
    """Apply rotary embeddings. x: (B, T, H, D)."""
    d = x.shape[3] // 2
    x1, x2 = x[..., :d], x[..., d:]
    y1 = x1 * cos + x2 * sin
    y2 = x1 * (-sin) + x2 * cos
    return jnp.concatenate([y1, y2], axis=3)


# ---------------------------------------------------------------------------
# Helper: which layers have value embeddings
# ---------------------------------------------------------------------------
def has_ve(layer_idx: int, n_layer: int) -> bool:
    """True if layer should have Value Embedding (alternating, last layer always included)."""
    return layer_idx % 2 == (n_layer - 1) % 2


# ---------------------------------------------------------------------------
# Causal Self-Attention
# ---------------------------------------------------------------------------
class CausalSelfAttention(nnx.Module):
    def __init__(self, config: GPTConfig, layer_idx: int, *, rngs: nnx.Rngs):
        # Store config (registered as static) and scalar metadata
        self.config: GPTConfig = nnx.data(config)
        self.layer_idx: int = nnx.data(layer_idx)
        self._has_ve: bool = nnx.data(has_ve(layer_idx, config.n_layer))

        head_dim = config.n_embd // config.n_head
        self.c_q = nnx.Linear(config.n_embd, config.n_head * head_dim, use_bias=False, rngs=rngs)
        self.c_k = nnx.Linear(config.n_embd, config.n_kv_head * head_dim, use_bias=False, rngs=rngs)
        self.c_v = nnx.Linear(config.n_embd, config.n_kv_head * head_dim, use_bias=False, rngs=rngs)
        self.c_proj = nnx.Linear(config.n_embd, config.n_embd, use_bias=False, rngs=rngs)

        if self._has_ve:
            self.ve_gate = nnx.Linear(12, config.n_kv_head, use_bias=False, rngs=rngs)

    def __call__(self, x, ve, cos, sin, window_size):
        B, T, C = x.shape
        # Read from static config — these are Python ints, not traced values
        n_head = self.config.n_head
        n_kv_head = self.config.n_kv_head
        head_dim = self.config.n_embd // self.config.n_head

        q = self.c_q(x).reshape(B, T, n_head, head_dim)
        k = self.c_k(x).reshape(B, T, n_kv_head, head_dim)
        v = self.c_v(x).reshape(B, T, n_kv_head, head_dim)

        if ve is not None:
            ve = ve.reshape(B, T, n_kv_head, head_dim)
            gate = 3.0 * jax.nn.sigmoid(self.ve_gate(x[..., :12]))
            v = v + gate[..., None] * ve

        q = apply_rotary_emb(q, cos, sin)
        k = apply_rotary_emb(k, cos, sin)

        q = rms_norm(q) * 1.2
        k = rms_norm(k) * 1.2

        # GQA: repeat K,V heads to match Q heads
        if n_kv_head < n_head:
            repeats = n_head // n_kv_head
            k = jnp.repeat(k, repeats, axis=2)
            v = jnp.repeat(v, repeats, axis=2)

        # Build causal + sliding window mask
        window_left = window_size[0]
        causal_mask = jnp.tril(jnp.ones((T, T), dtype=jnp.bool_))
        if window_left > 0 and window_left < T:
            row_idx = jnp.arange(T)[:, None]
            col_idx = jnp.arange(T)[None, :]
            window_mask = (row_idx - col_idx) <= window_left
            causal_mask = causal_mask & window_mask
        # (T, T) -> (1, 1, T, T) for broadcast
        bias = jnp.where(causal_mask, 0.0, -1e9)[None, None, :, :]

        # Use JAX's hardware-adaptive attention (auto-selects cuDNN/XLA kernels)
        # q,k,v: (B, T, H, D) — BTNH layout for dot_product_attention
        y = jax.nn.dot_product_attention(q, k, v, bias=bias, scale=1.0 / math.sqrt(head_dim))
        y = y.reshape(B, T, -1)
        y = self.c_proj(y)
        return y


# ---------------------------------------------------------------------------
# MLP with ReLU^2
# ---------------------------------------------------------------------------
class MLP(nnx.Module):
    def __init__(self, config: GPTConfig, *, rngs: nnx.Rngs):
        self.c_fc = nnx.Linear(config.n_embd, 4 * config.n_embd, use_bias=False, rngs=rngs)
        self.c_proj = nnx.Linear(4 * config.n_embd, config.n_embd, use_bias=False, rngs=rngs)

    def __call__(self, x):
        x = self.c_fc(x)
        x = jax.nn.relu(x) ** 2
        x = self.c_proj(x)
        return x


# ---------------------------------------------------------------------------
# Transformer Block (with optional gradient checkpointing)
# ---------------------------------------------------------------------------
class Block(nnx.Module):
    def __init__(self, config: GPTConfig, layer_idx: int, *, rngs: nnx.Rngs,
                 use_remat: bool = False):
        self.attn = CausalSelfAttention(config, layer_idx, rngs=rngs)
        self.mlp = MLP(config, rngs=rngs)
        # Store as plain Python bool — NOT nnx.data — to avoid JIT tracing issues
        self._use_remat = use_remat

    def _forward(self, x, ve, cos, sin, window_size):
        x = x + self.attn(rms_norm(x), ve, cos, sin, window_size)
        x = x + self.mlp(rms_norm(x))
        return x

    def __call__(self, x, ve, cos, sin, window_size):
        if self._use_remat:
            return nnx.remat(
                self._forward,
                policy=jax.checkpoint_policies.dots_saveable,
            )(self, x, ve, cos, sin, window_size)
        return self._forward(x, ve, cos, sin, window_size)


# ---------------------------------------------------------------------------
# GPT Model
# ---------------------------------------------------------------------------
class GPT(nnx.Module):
    def __init__(self, config: GPTConfig, *, rngs: nnx.Rngs,
                 pad_vocab_size_to: int = 64, use_remat: bool = False):
        """
        Args:
            config: Model config
            rngs: Flax RNG streams
            pad_vocab_size_to: Pad vocab for tensor core efficiency
            use_remat: Enable gradient checkpointing (saves memory, slower)
        """
        # Store config and non-trainable data
        self.config: GPTConfig = nnx.data(config)
        window_sizes = self._compute_window_sizes(config)
        self.window_sizes: list = nnx.data(window_sizes)

        padded_vocab_size = ((config.vocab_size + pad_vocab_size_to - 1) // pad_vocab_size_to) * pad_vocab_size_to
        if padded_vocab_size != config.vocab_size:
            print0(f"Padding vocab_size from {config.vocab_size} to {padded_vocab_size}")
        self.padded_vocab_size: int = nnx.data(padded_vocab_size)

        # Token embedding (untied from lm_head)
        self.wte = nnx.Embed(padded_vocab_size, config.n_embd, rngs=rngs)

        # Transformer blocks
        self.blocks = _NNX_LIST([Block(config, i, rngs=rngs, use_remat=use_remat)
                                 for i in range(config.n_layer)])

        # Language model head (untied)
        self.lm_head = nnx.Linear(config.n_embd, padded_vocab_size, use_bias=False, rngs=rngs)

        # Per-layer learnable scalars
        self.resid_lambdas = nnx.Param(jnp.ones(config.n_layer))
        self.x0_lambdas = nnx.Param(jnp.zeros(config.n_layer))

        # Smear
        self.smear_gate = nnx.Linear(24, 1, use_bias=False, rngs=rngs)
        self.smear_lambda = nnx.Param(jnp.zeros(1))

        # Backout
        self.backout_lambda = nnx.Param(0.2 * jnp.ones(1))

        # Value embeddings
        head_dim = config.n_embd // config.n_head
        kv_dim = config.n_kv_head * head_dim
        self.value_embeds = _NNX_DICT({str(i): nnx.Embed(padded_vocab_size, kv_dim, rngs=rngs)
                                       for i in range(config.n_layer) if has_ve(i, config.n_layer)})

        # Precompute rotary embeddings (stored as non-node data)
        rotary_seq_len = config.sequence_len * 10
        head_dim = config.n_embd // config.n_head
        cos, sin = precompute_rotary_embeddings(rotary_seq_len, head_dim)
        self.rope_cos: jax.Array = nnx.data(cos)
        self.rope_sin: jax.Array = nnx.data(sin)

        # Initialize weights
        self._init_weights()

    def _init_weights(self):
        """Initialize weights matching nanochat exactly."""
        config = self.config
        n_embd = config.n_embd
        n_layer = config.n_layer

        # Embedding: normal(0, 0.8)
        self.wte.embedding[...] = jax.random.normal(
            jax.random.key(0), self.wte.embedding[...].shape
        ) * 0.8
        self.wte.embedding[...] = self.wte.embedding[...].astype(COMPUTE_DTYPE)

        # lm_head: normal(0, 0.001)
        self.lm_head.kernel[...] = jax.random.normal(
            jax.random.key(1), self.lm_head.kernel[...].shape
        ) * 0.001

        # Transformer blocks: uniform init
        s = 3**0.5 * n_embd**-0.5
        for i, block in enumerate(self.blocks):
            key = jax.random.key(100 + i)
            keys = jax.random.split(key, 6)

            block.attn.c_q.kernel[...] = jax.random.uniform(keys[0], block.attn.c_q.kernel[...].shape, minval=-s, maxval=s)
            block.attn.c_k.kernel[...] = jax.random.uniform(keys[1], block.attn.c_k.kernel[...].shape, minval=-s, maxval=s)
            block.attn.c_v.kernel[...] = jax.random.uniform(keys[2], block.attn.c_v.kernel[...].shape, minval=-s, maxval=s)

            block.attn.c_proj.kernel[...] = jnp.zeros_like(block.attn.c_proj.kernel[...])
            block.mlp.c_proj.kernel[...] = jnp.zeros_like(block.mlp.c_proj.kernel[...])

            block.mlp.c_fc.kernel[...] = jax.random.uniform(keys[3], block.mlp.c_fc.kernel[...].shape, minval=-s*0.4, maxval=s*0.4)

            if block.attn._has_ve:
                block.attn.ve_gate.kernel[...] = jax.random.uniform(keys[4], block.attn.ve_gate.kernel[...].shape, minval=0.0, maxval=0.02)

        # Per-layer scalar init
        resid_vals = jnp.array([1.15 - (0.10 * i / max(n_layer - 1, 1)) for i in range(n_layer)])
        x0_vals = jnp.array([0.20 - (0.15 * i / max(n_layer - 1, 1)) for i in range(n_layer)])
        self.resid_lambdas[...] = resid_vals
        self.x0_lambdas[...] = x0_vals

        # Value embeddings: uniform like c_v
        for key_str, ve in self.value_embeds.items():
            i = int(key_str)
            ve.embedding[...] = jax.random.uniform(
                jax.random.key(200 + i), ve.embedding[...].shape, minval=-s, maxval=s
            )
            ve.embedding[...] = ve.embedding[...].astype(COMPUTE_DTYPE)

    @staticmethod
    def _compute_window_sizes(config: GPTConfig):
        """Compute per-layer (left, right) window sizes for sliding window attention."""
        pattern = config.window_pattern.upper()
        assert all(c in "SL" for c in pattern), f"Invalid window_pattern: {pattern}"
        long_window = config.sequence_len
        short_window = -(-long_window // 4 // 128) * 128

        char_to_window = {"L": (long_window, 0), "S": (short_window, 0)}
        window_sizes = []
        for layer_idx in range(config.n_layer):
            char = pattern[layer_idx % len(pattern)]
            window_sizes.append(char_to_window[char])
        window_sizes[-1] = (long_window, 0)
        return window_sizes

    def __call__(self, idx, targets=None):
        B, T = idx.shape
        config = self.config

        cos = self.rope_cos[:, :T]
        sin = self.rope_sin[:, :T]

        x = self.wte(idx)
        x = x.astype(COMPUTE_DTYPE)
        x = rms_norm(x)

        # Smear
        gate = self.smear_lambda[...].astype(x.dtype) * jax.nn.sigmoid(self.smear_gate(x[:, 1:, :24]))
        x_smeared = x[:, 1:] + gate * x[:, :-1]
        x = jnp.concatenate([x[:, :1], x_smeared], axis=1)

        x0 = x
        n_layer = config.n_layer
        backout_layer = n_layer // 2
        x_backout = None

        for i, block in enumerate(self.blocks):
            x = self.resid_lambdas[...][i] * x + self.x0_lambdas[...][i] * x0
            ve_key = str(i)
            ve = self.value_embeds[ve_key](idx).astype(x.dtype) if hasattr(self.value_embeds, ve_key) else None
            x = block(x, ve, cos, sin, self.window_sizes[i])
            if i == backout_layer:
                x_backout = x

        if x_backout is not None:
            x = x - self.backout_lambda[...].astype(x.dtype) * x_backout
        x = rms_norm(x)

        softcap = 15.0
        logits = self.lm_head(x)
        logits = logits[..., :config.vocab_size]
        logits = logits.astype(jnp.float32)
        logits = softcap * jnp.tanh(logits / softcap)

        if targets is not None:
            one_hot = jax.nn.one_hot(targets, config.vocab_size)
            log_probs = jax.nn.log_softmax(logits, axis=-1)
            mask = (targets >= 0).astype(jnp.float32)
            loss = -jnp.sum(one_hot * log_probs, axis=-1)
            loss = jnp.sum(loss * mask) / jnp.maximum(jnp.sum(mask), 1.0)
            return loss
        else:
            return logits

    def estimate_flops(self) -> int:
        config = self.config
        all_params = jax.tree.leaves(nnx.state(self, nnx.Param))
        nparams = sum(p.size for p in all_params)

        nparams_exclude = (
            self.wte.embedding[...].size +
            sum(ve.embedding[...].size for ve in self.value_embeds.values()) +
            self.resid_lambdas[...].size +
            self.x0_lambdas[...].size +
            self.smear_gate.kernel[...].size +
            self.smear_lambda[...].size +
            self.backout_lambda[...].size
        )

        h = config.n_head
        q = config.n_embd // config.n_head
        t = config.sequence_len

        attn_flops = 0
        for window_size in self.window_sizes:
            window = window_size[0]
            effective_seq = t if window < 0 else min(window, t)
            attn_flops += 12 * h * q * effective_seq

        return 6 * (nparams - nparams_exclude) + attn_flops

    def num_params(self) -> int:
        all_params = jax.tree.leaves(nnx.state(self, nnx.Param))
        return sum(p.size for p in all_params)


# ---- scripts/train_local.py ----
class _Args:  # scaffolding: argparse defaults of train_local.py, with 3 steps
    depth = 2  # scaffolding
    n_embd = 64  # scaffolding
    seq_len = 128  # scaffolding
    batch_size = 4  # scaffolding
    steps = 3  # scaffolding
    lr = 1e-3  # scaffolding


args = _Args()  # scaffolding
text = "".join(chr(32 + (i * 7919) % 90) for i in range(20000))  # scaffolding: stands in for the downloaded tiny Shakespeare text

# ---------------------------------------------------------------------------
# 2. Byte-level tokenization (simple, no BPE needed)
# ---------------------------------------------------------------------------
vocab_size = 256  # byte-level
data = np.array(list(text.encode("utf-8")), dtype=np.int32)

# Train/val split
split_idx = int(len(data) * 0.9)
train_data = data[:split_idx]
val_data = data[split_idx:]
print0(f"Train: {len(train_data):,} tokens, Val: {len(val_data):,} tokens")


def get_batch(data, batch_size, seq_len, key):
    """Random batch from data."""
    max_start = len(data) - seq_len - 1
    starts = jax.random.randint(key, (batch_size,), 0, max_start)
    # Build batch on CPU with numpy, then convert
    inputs = np.zeros((batch_size, seq_len), dtype=np.int32)
    targets = np.zeros((batch_size, seq_len), dtype=np.int32)
    for i in range(batch_size):
        s = int(starts[i])
        inputs[i] = data[s:s + seq_len]
        targets[i] = data[s + 1:s + seq_len + 1]
    return jnp.array(inputs), jnp.array(targets)


# ---------------------------------------------------------------------------
# 3. Build model
# ---------------------------------------------------------------------------
n_head = max(1, args.n_embd // 32)
config = GPTConfig(
    sequence_len=args.seq_len,
    vocab_size=vocab_size,
    n_layer=args.depth,
    n_head=n_head,
    n_kv_head=n_head,
    n_embd=args.n_embd,
    window_pattern="L",  # no sliding window for tiny model
)

model = GPT(config, rngs=nnx.Rngs(0))
num_params = model.num_params()
print0(f"Model: depth={args.depth}, dim={args.n_embd}, heads={n_head}")
print0(f"Parameters: {num_params:,}")

# ---------------------------------------------------------------------------
# 4. Optimizer (simple AdamW for local training)
# ---------------------------------------------------------------------------
import optax

tx = optax.adamw(learning_rate=args.lr, b1=0.9, b2=0.99, weight_decay=0.01)
optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)


@nnx.jit
def train_step(model, optimizer, inputs, targets):
    def loss_fn(model):
        return model(inputs, targets)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


@nnx.jit
def eval_step(model, inputs, targets):
    return model(inputs, targets)


# ---------------------------------------------------------------------------
# 5. Training loop
# ---------------------------------------------------------------------------
print0(f"\nTraining for {args.steps} steps...")
best_val_loss = float('inf')
t_total = 0
calls = 0  # scaffolding

try:  # scaffolding
    for step in range(args.steps):
        t0 = time.time()

        key = jax.random.key(step)
        inputs, targets = get_batch(train_data, args.batch_size, args.seq_len, key)
        loss = train_step(model, optimizer, inputs, targets)
        calls += 1  # scaffolding

        dt = time.time() - t0
        if step > 5:
            t_total += dt
    _report({"jit(train_step)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
