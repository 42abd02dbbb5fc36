# source: https://github.com/ayaka14732/llama-2-jax/commit/4881a03469a89376c19615ef806728c0c98f464c
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: forward_decoder_block, forward_rms_norm and forward_dropout are each jitted with the config static and are called inside the jitted training step; the inner jits are inlined into the outer trace, so the step compiles once for 3 calls, the same as after the commit.

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


from functools import partial
from typing import Any, NamedTuple

import jax
from jax import Array
import jax.numpy as jnp
import jax.random as rand


# lib/llama/ModelConfig.py
class ModelConfig(NamedTuple):
    d_ff: int
    d_k: int
    d_model: int
    d_v: int
    n_heads_kv: int
    n_layers: int
    n_rep_kv: int
    rms_norm_eps: float
    token_id_bos: int
    token_id_eos: int
    token_id_pad: int
    vocab_size: int

    # TODO: move out of model config
    dropout_rate: float | None
    return_kv_cache: bool

model_config_dummy = ModelConfig(
    d_ff=32,
    d_k=32,
    d_model=15,
    d_v=16,
    n_heads_kv=32,
    n_layers=3,
    n_rep_kv=2,
    rms_norm_eps=1e-6,
    token_id_bos=1,
    token_id_eos=2,
    token_id_pad=0,
    vocab_size=32000,
    dropout_rate=0.1,
    return_kv_cache=False,
)


def split_key_nullable(key, num=2):  # scaffolding: lib/rand_utils.split_key_nullable
    return (None,) * num if key is None else tuple(rand.split(key, num))


# lib/llama/rms_norm.py (before the commit)
# Taken from https://github.com/ztjhz/t5-jax/blob/main/model/layer_norm.py#L23
@partial(jax.jit, static_argnames=('model_config',))
def forward_rms_norm(params: Array, x: Array, *, model_config: ModelConfig) -> Array:
    x_rms = jnp.sqrt((x * x).mean(axis=-1, keepdims=True) + model_config.rms_norm_eps)
    y = x / x_rms * params
    return y


# lib/llama/dropout.py (before the commit)
@partial(jax.jit, static_argnames=('model_config',))
def forward_dropout(x: Array, *, key: Array | None=None, model_config: ModelConfig) -> Array:
    if key is None or model_config.dropout_rate is None:  # should disable dropout
        return x

    assert 0. <= model_config.dropout_rate <= 1.
    assert isinstance(x, Array)
    assert isinstance(key, Array)

    keep_rate = 1. - model_config.dropout_rate
    out = x * rand.bernoulli(key, p=keep_rate, shape=x.shape) / keep_rate
    assert x.shape == out.shape
    return out


def forward_attention(params, q_seq, kv_seq, qk_mask, *, rotary_values, kv_cache, model_config):  # scaffolding: single-head attention
    q, k, v = q_seq @ params[0], kv_seq @ params[1], kv_seq @ params[2]
    w = jax.nn.softmax(jnp.where(qk_mask, q @ jnp.swapaxes(k, -1, -2) / jnp.sqrt(q.shape[-1]), -1e9), axis=-1)
    return w @ v, kv_cache


# lib/llama/decoder_block.py (before the commit; init/check functions cut)
class DecoderBlock(NamedTuple):
    input_norm: Any  # Array
    attention: Any  # Attention
    post_attn_norm: Any  # Array
    gate_proj: Any  # Array
    up_proj: Any  # Array
    down_proj: Any  # Array

@partial(jax.jit, static_argnames=('model_config',))
def forward_decoder_block(params: DecoderBlock, seq: Array, qk_mask: Array, *, rotary_values, kv_cache=None, key: Array | None=None, model_config: ModelConfig) -> tuple[Array, Any]:
    key0, key1, key2 = split_key_nullable(key, num=3)

    seq_ = seq
    seq = forward_rms_norm(params.input_norm, seq, model_config=model_config)
    seq, kv_cache = forward_attention(params.attention, seq, seq, qk_mask, rotary_values=rotary_values, kv_cache=kv_cache, model_config=model_config)
    seq = forward_dropout(seq, key=key0, model_config=model_config)
    seq += seq_

    seq_ = seq
    seq = forward_rms_norm(params.post_attn_norm, seq, model_config=model_config)
    ff = jax.nn.silu(seq @ params.gate_proj) * (seq @ params.up_proj)
    ff = forward_dropout(ff, key=key1, model_config=model_config)
    seq = ff @ params.down_proj
    seq = forward_dropout(seq, key=key2, model_config=model_config)
    seq += seq_

    return seq, kv_cache


# scaffolding: a jitted training step (the outermost jit, as in the repo's train script) over one decoder block
cfg = model_config_dummy
k = rand.split(rand.PRNGKey(0), 6)
params = DecoderBlock(
    input_norm=jnp.ones((cfg.d_model,)),
    attention=tuple(rand.normal(k[i], (cfg.d_model, cfg.d_model)) * 0.1 for i in range(3)),
    post_attn_norm=jnp.ones((cfg.d_model,)),
    gate_proj=rand.normal(k[3], (cfg.d_model, cfg.d_ff)) * 0.1,
    up_proj=rand.normal(k[4], (cfg.d_model, cfg.d_ff)) * 0.1,
    down_proj=rand.normal(k[5], (cfg.d_ff, cfg.d_model)) * 0.1,
)


@partial(jax.jit, static_argnames=('model_config',))
def train_step(params, seq, qk_mask, key, *, model_config):
    def loss_fn(p):
        out, _ = forward_decoder_block(p, seq, qk_mask, rotary_values=None, key=key, model_config=model_config)
        return jnp.mean(out ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(params)
    return jax.tree_util.tree_map(lambda p, g: p - 1e-2 * g, params, grads), loss


seq = rand.normal(rand.PRNGKey(1), (2, 6, cfg.d_model))
qk_mask = jnp.tril(jnp.ones((6, 6), bool))
calls = 0
for step in range(3):
    params, loss = train_step(params, seq, qk_mask, rand.PRNGKey(step), model_config=cfg)
    calls += 1
_report({"jit(train_step)", "jit(forward_decoder_block)", "jit(forward_rms_norm)", "jit(forward_dropout)"}, calls)
