# source: https://github.com/adi-kmt/nanogpt-jax/commit/72c25b5cc55ec3b16346f6e359d99f8d29043250
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: after the commit the config is `eqx.field(static=True)` (and Rotary uses d_head), so the pydantic config goes into the treedef and the jitted forward compiles once.
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
# --- config.py (at the commit) ---
from typing import Literal

from pydantic import BaseModel

class GPTConfig(BaseModel):
    activation_type: Literal["relu", "gelu", "relu2", "swish", "swiglu", "swilu"]
    dropout_p: float

    d_model: int

    linear_d_hidden: int

    use_bias: bool
    use_qkNorm: bool
    tie_word_embeddings: bool = True
    use_rotary:bool

    n_heads: int
    d_head: int
    max_seq_len: int
    norm_eps: float


# --- layers.py (Linear, parent commit) ---
import equinox as eqx
import jax.numpy as jnp
import jax
from jaxtyping import Array, Float, Bool
from jax import random


class Linear(eqx.Module):
    weight: Float[Array, "out_features in_features"]
    bias: Float[Array, "out_features"] | None
    in_features: int = eqx.field(static=True)
    out_features: int = eqx.field(static=True)

    def __init__(self, in_features: int, out_features: int, key: jax.random.PRNGKey, use_bias: bool = True):
        key1, key2 = jax.random.split(key)

        self.in_features = in_features
        self.out_features = out_features

        limit = 1 / jnp.power(in_features, 0.5)
        self.weight = random.uniform(key1, (out_features, in_features), minval=-limit, maxval=limit)

        if use_bias:
            self.bias = random.uniform(shape=(out_features,), key=key2)
        else:
            self.bias = None

    def __call__(self, x: Float[Array, "batch seq_len d_model"]) -> Float[Array, "batch seq_len d_model"]:
        result = jnp.einsum("...i,ji->...j", x, self.weight)
        if self.bias is not None:
            result += self.bias
        return result


# --- norms.py (parent commit) ---
def norm_without_weight(x: Float[Array, "batch seq_len d_model"], eps: float) -> Float[Array, "batch seq_len d_model"]:
    return x * jax.lax.rsqrt(jnp.mean(jnp.square(x), axis=-1, keepdims=True) + eps)


def rearrange(x, pattern, h, k):  # scaffolding: einops is not installed; the two patterns attentions.py uses
    if pattern == "b s (h k) -> b h s k":  # scaffolding
        return jnp.transpose(x.reshape(x.shape[0], x.shape[1], h, k), (0, 2, 1, 3))  # scaffolding
    return jnp.transpose(x, (0, 2, 1, 3)).reshape(x.shape[0], x.shape[2], h * k)  # scaffolding: "b h s k -> b s (h k)"


# --- attentions.py (after the commit) ---
# From [modded-nanogpt](https://github.com/KellerJordan/modded-nanogpt/blob/master/train_gpt.py#L306)
class Rotary(eqx.Module):
    cos: jax.Array
    sin: jax.Array
    dim: int = eqx.static_field()
    max_seq_len: int = eqx.static_field()

    def __init__(self, dim: int, max_seq_len: int):
        self.dim = dim
        self.max_seq_len = max_seq_len

        # Step 1: Create angular frequencies
        # (1 / 1024) ** linspace(0, 1, dim//4)
        angular_freq = (1 / 1024) ** jnp.linspace(0, 1, dim // 4, dtype=jnp.float32)
        # Step 2: Concatenate with zeros: [angular_freq, zeros]
        angular_freq = jnp.concatenate([angular_freq, jnp.zeros((dim // 4,), dtype=jnp.float32)])  # shape: [dim//2]

        # Step 3: Outer product: t[i] * angular_freq[j]
        t = jnp.arange(max_seq_len, dtype=jnp.float32)
        theta = jnp.outer(t, angular_freq)  # [max_seq_len, dim//2]

        # Step 4: Precompute cos and sin
        self.cos = jnp.cos(theta)  # [max_seq_len, dim//2]
        self.sin = jnp.sin(theta)  # [max_seq_len, dim//2]

    def __call__(self, x_BTHD: jax.Array) -> jax.Array:
        """
        Apply rotary embedding.

        Args:
            x_BTHD: tensor of shape [Batch, Time, Heads, Dim]

        Returns:
            Rotated tensor of same shape
        """
        current_seq_len = x_BTHD.shape[1]
        assert self.cos.shape[0] >= current_seq_len, (
            f"Need {current_seq_len} positions, but only have {self.cos.shape[0]} precomputed."
        )

        # Extract cos/sin for current sequence length
        cos = self.cos[:current_seq_len]  # [T, dim//2]
        sin = self.sin[:current_seq_len]  # [T, dim//2]

        # Add broadcast axes: [1, T, 1, dim//2]
        cos = cos[None, :, None, :]
        sin = sin[None, :, None, :]

        # Split input on last dimension
        x_float = x_BTHD.astype(jnp.float32)
        x1, x2 = jnp.split(x_float, 2, axis=-1)  # Each: [B, T, H, dim//2]

        # Apply rotation
        y1 = x1 * cos + x2 * sin
        y2 = x1 * (-sin) + x2 * cos  # Note: -sin on x1

        # Recombine
        out = jnp.concatenate([y1, y2], axis=-1)  # [B, T, H, dim]
        return out.astype(x_BTHD.dtype)


class MultiHeadAttention(eqx.Module):
    w_q: Linear
    w_k: Linear
    w_v: Linear
    w_o: Linear
    config: GPTConfig = eqx.field(static=True)
    rotary: Rotary

    def __init__(self, config: GPTConfig, key: jax.random.PRNGKey):
        key1, key2, key3, key4 = jax.random.split(key, 4)
        self.config = config
        self.w_q = Linear(config.d_model, config.d_model, use_bias=config.use_bias, key=key1)
        self.w_k = Linear(config.d_model, config.d_model, use_bias=config.use_bias, key=key2)
        self.w_v = Linear(config.d_model, config.d_model, use_bias=config.use_bias, key=key3)
        self.w_o = Linear(config.d_model, config.d_model, use_bias=config.use_bias, key=key4)
        self.rotary = Rotary(dim=config.d_head, max_seq_len=config.max_seq_len)

    def __call__(self, x: Float[Array, "batch seq_len d_model"], key: jax.random.PRNGKey,
                 mask: Bool[Array, "seq_len seq_len"]) -> Float[Array, "batch seq_len d_model"]:
        q = self.w_q(x)
        k = self.w_k(x)
        v = self.w_v(x)

        q = rearrange(q, "b s (h k) -> b h s k", h=self.config.n_heads, k=self.config.d_head)
        k = rearrange(k, "b s (h k) -> b h s k", h=self.config.n_heads, k=self.config.d_head)
        v = rearrange(v, "b s (h k) -> b h s k", h=self.config.n_heads, k=self.config.d_head)

        if self.config.use_qkNorm:
            q = norm_without_weight(q, self.config.norm_eps)
            k = norm_without_weight(k, self.config.norm_eps)

        if self.config.use_rotary:
            q = self.rotary(q)
            k = self.rotary(k)

        attn_scores = jnp.einsum('b h s k, b h t k -> b h s t', q, k)
        attn_scores = attn_scores / jnp.sqrt(self.config.d_head)

        if mask is not None:
            mask = jnp.expand_dims(mask, (0, 1))
            attn_scores = jnp.where(mask, attn_scores, -jnp.inf)

        attn_weights = jax.nn.softmax(attn_scores, axis=-1)

        out = jnp.einsum('b h s t, b h t k -> b h s k', attn_weights, v)
        out = rearrange(out, "b h s k -> b s (h k)", h=self.config.n_heads, k=self.config.d_head)
        out = self.w_o(out)

        return out


# --- test_layers.py (the commit's attention test_jit_compilation) ---
Batch = 2
SeqLen = 8
DModel = 16
NHeads = 4
DHead = DModel // NHeads


def config():
    return GPTConfig(
        activation_type="gelu",
        dropout_p=0.1,
        d_model=DModel,
        linear_d_hidden=32,
        norm_eps=1e-6,
        use_bias=True,
        use_qkNorm=False,
        tie_word_embeddings=True,
        use_rotary=False,
        max_seq_len=SeqLen,
        n_heads=NHeads,
        d_head=DHead
    )


def large_key():
    return random.PRNGKey(7)


class TestMultiHeadAttention:
    def test_jit_compilation(self, config, large_key):
        config = config.copy(update={"use_rotary": True})
        attn = MultiHeadAttention(config, key=large_key)
        x = random.normal(large_key, (2, 5, config.d_model))
        mask = jnp.tril(jnp.ones((5, 5), dtype=bool))

        @jax.jit
        def forward(module, x, mask, key):
            return module(x, key=key, mask=mask)

        y = forward(attn, x, mask, large_key)
        assert y.shape == (2, 5, config.d_model)
        assert jnp.all(jnp.isfinite(y))


try:  # scaffolding
    TestMultiHeadAttention().test_jit_compilation(config(), large_key())  # scaffolding: pytest fixtures called by hand
    _report({"jit(forward)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
