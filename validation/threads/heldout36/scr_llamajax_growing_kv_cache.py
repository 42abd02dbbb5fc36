# source: https://github.com/stickshift/llama-jax/blob/17f2491f653668c0a118ca25a2e4f96ce55e684f/src/llama_jax/text.py
# expect: shape-churn at line 214
# runtime: COMPILES 6 CALLS 6
# why: The generator calls the jitted model.forward once per new token with a key/value cache that kvc._apply grows by jnp.concat along the sequence axis, so every call sees new cache shapes and forward is traced and compiled again for every generated token.

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
from functools import partial
from pathlib import Path
from types import SimpleNamespace  # scaffolding
from typing import NamedTuple

import jax
from jax import Array, random
from jax import numpy as jnp


# --- src/llama_jax/checkpoint.py: ModelConfig ---
class ModelConfig(NamedTuple):
    """Llama3 model config."""
    checkpoint_name: str
    checkpoint_path: Path
    max_sequence_length: int
    vocab_size: int
    d_model: int
    d_head: int
    d_ffn: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    rms_norm_eps: float
    dtype: object


def default_arg(v, default=None, default_factory=None):  # scaffolding: llama_jax.tools.default_arg
    if v is not None:
        return v
    return default_factory() if default_factory is not None else default


# --- src/llama_jax/kvc.py ---
class LayerKVCache(NamedTuple):
    """Key-Value cache for single attention layer."""

    keys: Array | None

    values: Array | None


KVCache = tuple[LayerKVCache, ...]


def create(config: ModelConfig) -> KVCache:
    """Create key-value cache for attention layers."""
    # All layers start with same layer kvc
    layer_kvc = LayerKVCache(keys=None, values=None)

    return tuple(layer_kvc for _ in range(config.n_layers))


def apply(layer_kvc: LayerKVCache, *, keys: Array, values: Array) -> tuple[LayerKVCache, Array, Array]:
    assert keys.shape == values.shape

    # Append keys and values to cache along axis 2
    layer_kvc = LayerKVCache(
        keys=_apply(layer_kvc.keys, keys),
        values=_apply(layer_kvc.values, values),
    )

    assert layer_kvc.keys is not None
    assert layer_kvc.values is not None

    return layer_kvc, layer_kvc.keys, layer_kvc.values


def _apply(cached_values: Array | None, values: Array) -> Array:
    """Add values to cache and return entire cache."""
    if cached_values is None:
        return values

    return jnp.concat([cached_values, values], axis=-2)


# --- src/llama_jax/attention.py: attention_mask ---
def attention_mask(config: ModelConfig, position_mask: Array) -> Array:
    """Compute attention mask."""
    assert position_mask.dtype == jnp.int32
    assert position_mask.shape[-1] == config.max_sequence_length
    causal_mask = jnp.tril(jnp.ones((config.max_sequence_length, config.max_sequence_length), dtype=jnp.int32))
    m = causal_mask[None, :, :] & position_mask[:, None, :]
    m = jnp.where(m, 0, -jnp.inf)
    return m


# --- scaffolding: one-head stand-ins for embeddings/layer/head that use the kv cache the same way ---
def _embeddings_forward(config, state, token_ids):
    return state[token_ids]


def _layer_forward(config, layer, rope, mask, x, kvc):
    q = (x @ layer["wq"])[:, None]                       # (bs, 1 head, n, d_head)
    kvc, k, v = apply(kvc, keys=(x @ layer["wk"])[:, None], values=(x @ layer["wv"])[:, None])
    n, t = q.shape[-2], k.shape[-2]
    s = q @ jnp.swapaxes(k, -1, -2) / jnp.sqrt(config.d_head) + mask[:, None, t - n:t, :t]
    return x + (jax.nn.softmax(s, axis=-1) @ v)[:, 0] @ layer["wo"], kvc


def _head_forward(config, state, x, position_mask):
    return x[:, -1] @ state


ll = SimpleNamespace(  # scaffolding: the llama_jax package namespace
    kvc=SimpleNamespace(create=create),
    embeddings=SimpleNamespace(forward=_embeddings_forward),
    attention=SimpleNamespace(attention_mask=attention_mask),
    layer=SimpleNamespace(forward=_layer_forward),
    head=SimpleNamespace(forward=_head_forward),
)


class Model(NamedTuple):  # scaffolding
    embeddings: Array
    layers: tuple
    rope: Array
    head: Array


# --- src/llama_jax/model.py: forward ---
@partial(jax.jit, static_argnames=("config",))
def forward(
    config: ModelConfig,
    state: Model,
    token_ids: Array,
    position_mask: Array,
    *,
    kvc: KVCache | None = None,
) -> Array | tuple[Array, KVCache]:
    """Transform token_ids into next token logits."""
    # Validate
    if token_ids.shape[-1] > config.max_sequence_length:
        raise ValueError(f"Number of tokens exceed config.max_tokens {config.max_sequence_length}")

    # Remember if cache was provided
    external_cache = kvc is not None

    # Defaults
    kvc = default_arg(kvc, default_factory=partial(ll.kvc.create, config))

    # Sanity check
    assert token_ids.ndim == 2

    # Map tokens to embeddings
    x = ll.embeddings.forward(config, state.embeddings, token_ids)

    # Create mask
    mask = ll.attention.attention_mask(config, position_mask)

    # Create mutable kv cache
    kvc_layers = list(kvc)

    # Apply layers
    for i, layer in enumerate(state.layers):
        x, kvc_layers[i] = ll.layer.forward(config, layer, state.rope, mask, x, kvc_layers[i])

    # Convert kv caches back into immutable sequence
    kvc = KVCache(kvc_layers)

    # Apply head
    x = ll.head.forward(config, state.head, x, position_mask)

    # Return updated cache if provided
    if external_cache:
        return x, kvc

    return x


# --- src/llama_jax/text.py: the generator's sampling loop (tokenizer and top-k/top-p sampling replaced: scaffolding) ---
N_CALLS = 0  # scaffolding


def generate(config, model, token_ids, position_mask, max_tokens, key=None):
    global N_CALLS  # scaffolding
    # Initialize key/value cache
    kvc = ll.kvc.create(config)

    # Initialize x with entire sequence on first pass
    x = token_ids

    # Sample up to max tokens
    for _ in range(max_tokens):
        # Transform x into logits
        logits, kvc = ll_model_forward(config, model, x, position_mask, kvc=kvc)
        N_CALLS += 1  # scaffolding

        next_token_id = jnp.argmax(logits, axis=-1, keepdims=True)  # scaffolding: ll.model.next_token_id(...)

        # Subsequent iterations process one token at a time.
        x = next_token_id
    return N_CALLS


ll_model_forward = forward  # scaffolding: ll.model.forward
config = ModelConfig("stand-in", Path("."), 32, 50, 16, 16, 32, 2, 1, 1, 1e-5, jnp.float32)  # scaffolding
k = random.split(random.key(0), 6)
model = Model(random.normal(k[0], (50, 16)),
              tuple({w: 0.1 * random.normal(kk, (16, 16)) for w, kk in zip(("wq", "wk", "wv", "wo"), random.split(k[i], 4))} for i in (1, 2)),
              jnp.zeros(1), random.normal(k[3], (16, 50)))
prompt = jnp.array([[1, 2, 3, 4, 5]])
position_mask = jnp.concat([jnp.ones((1, 5)), jnp.ones((1, 32 - 5))], axis=-1).astype(int)  # ll.position_mask.create(...)
generate(config, model, prompt, position_mask, max_tokens=6)
_report({"jit(forward)"}, N_CALLS)
