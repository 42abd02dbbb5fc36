# source: https://github.com/Zayed024/nanozero-jax/commit/3d93323a2f295a6819c86f033e19994558fc0338
# expect: jit-in-loop-or-body at line 218
# runtime: COMPILES 3 CALLS 9
# why: generate_nocache builds `step_fn = jax.jit(_step)` inside the function (its comment: 'cur is passed as a traced index so this compiles exactly once'); it is once per call, so three calls compile _step three times (3 compiles, 9 calls).
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



import json
import math
from dataclasses import dataclass
from functools import partial
from glob import glob

import jax
import jax.numpy as jnp
import numpy as np

REPO = "Qwen/Qwen2.5-0.5B-Instruct"


# --- nanozero.py (at the commit; the model and the reference sampler generate_nocache, which the commit leaves unchanged) ---
@dataclass(frozen=True)
class Config:
    vocab_size: int
    hidden: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    intermediate: int
    rope_theta: float
    eps: float
    tie_embeddings: bool

    @staticmethod
    def from_hf(cfg: dict) -> "Config":
        hidden = cfg["hidden_size"]
        n_heads = cfg["num_attention_heads"]
        return Config(
            vocab_size=cfg["vocab_size"],
            hidden=hidden,
            n_layers=cfg["num_hidden_layers"],
            n_heads=n_heads,
            n_kv_heads=cfg["num_key_value_heads"],
            head_dim=cfg.get("head_dim", hidden // n_heads),
            intermediate=cfg["intermediate_size"],
            rope_theta=float(cfg.get("rope_theta", 1e6)),
            eps=float(cfg.get("rms_norm_eps", 1e-6)),
            tie_embeddings=bool(cfg.get("tie_word_embeddings", True)),
        )


def rope_cos_sin(position_ids, head_dim: int, theta: float):
    """position_ids: [B, T] (per-token, supports padding/offsets) -> cos, sin each [B, T, head_dim]."""
    inv_freq = 1.0 / (theta ** (jnp.arange(0, head_dim, 2, dtype=jnp.float32) / head_dim))  # [hd/2]
    freqs = position_ids.astype(jnp.float32)[..., None] * inv_freq  # [B, T, hd/2]
    emb = jnp.concatenate([freqs, freqs], axis=-1)  # [B, T, hd]
    return jnp.cos(emb), jnp.sin(emb)


def rotate_half(x):
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return jnp.concatenate([-x2, x1], axis=-1)


def apply_rope(x, cos, sin):
    # x: [B, T, n_heads, head_dim];  cos/sin: [B, T, head_dim]
    cos = cos[:, :, None, :]
    sin = sin[:, :, None, :]
    return x * cos + rotate_half(x) * sin


def rmsnorm(x, weight, eps: float):
    x32 = x.astype(jnp.float32)
    var = jnp.mean(x32 * x32, axis=-1, keepdims=True)
    normed = x32 * jax.lax.rsqrt(var + eps)
    return (normed * weight.astype(jnp.float32)).astype(x.dtype)


def _lora_delta(x, lora_layer, key, scale):
    """LoRA low-rank delta for one projection: (x @ A) @ B * scale. 0 if not adapted."""
    ab = lora_layer.get(key) if lora_layer else None
    if ab is None:
        return 0.0
    return ((x @ ab["A"]) @ ab["B"]) * scale


def _attn_qkv(x, p, cfg: Config, lora_layer, lora_scale):
    """Project x -> (q [B,T,nh,hd], k [B,T,nkv,hd], v [B,T,nkv,hd]), pre-RoPE."""
    B, T, _ = x.shape
    nh, nkv, hd = cfg.n_heads, cfg.n_kv_heads, cfg.head_dim
    q = (x @ p["wq"] + p["bq"] + _lora_delta(x, lora_layer, "wq", lora_scale)).reshape(B, T, nh, hd)
    k = (x @ p["wk"] + p["bk"] + _lora_delta(x, lora_layer, "wk", lora_scale)).reshape(B, T, nkv, hd)
    v = (x @ p["wv"] + p["bv"] + _lora_delta(x, lora_layer, "wv", lora_scale)).reshape(B, T, nkv, hd)
    return q, k, v


def attention(x, p, cos, sin, cfg: Config, attn_bias, lora_layer=None, lora_scale=1.0):
    # attn_bias: [B, 1, T, T] additive (0 where allowed, -1e30 where masked)
    B, T, _ = x.shape
    nh, nkv, hd = cfg.n_heads, cfg.n_kv_heads, cfg.head_dim

    q, k, v = _attn_qkv(x, p, cfg, lora_layer, lora_scale)

    q = apply_rope(q, cos, sin)
    k = apply_rope(k, cos, sin)

    # GQA: expand kv heads to match query heads
    k = jnp.repeat(k, nh // nkv, axis=2)
    v = jnp.repeat(v, nh // nkv, axis=2)

    q = q.transpose(0, 2, 1, 3)  # [B, nh, T, hd]
    k = k.transpose(0, 2, 1, 3)
    v = v.transpose(0, 2, 1, 3)

    scores = (q @ k.transpose(0, 1, 3, 2)) / math.sqrt(hd)  # [B, nh, T, T]
    scores = scores.astype(jnp.float32) + attn_bias
    attn = jax.nn.softmax(scores, axis=-1).astype(x.dtype)

    out = attn @ v  # [B, nh, T, hd]
    out = out.transpose(0, 2, 1, 3).reshape(B, T, nh * hd)
    return out @ p["wo"] + _lora_delta(out, lora_layer, "wo", lora_scale)


def mlp(x, p):
    return (jax.nn.silu(x @ p["w_gate"]) * (x @ p["w_up"])) @ p["w_down"]


def backbone(params, ids, cfg: Config, attn_mask=None, position_ids=None, lora=None, lora_scale=1.0, remat=False):
    """ids: [B, T] int32 -> final hidden states [B, T, hidden] (pre-LM-head).

    attn_mask:    [B, T] 1 for real tokens, 0 for padding (default: all real).
    position_ids: [B, T] (default: arange, i.e. no left-padding).
    lora:         optional LoRA pytree (see `init_lora`). None -> frozen base pass
                  (this IS the GRPO reference pass — no separate model copy needed).
    remat:        gradient-checkpoint each layer. REQUIRED when differentiating at
                  training batch sizes: without it, backward stores every layer's
                  attention residuals ([B,nh,T,T] x 24 layers ~ 16 GB) and OOMs a T4.
                  Forward-only callers (generate/eval) leave it off.
    """
    B, T = ids.shape
    if position_ids is None:
        position_ids = jnp.broadcast_to(jnp.arange(T), (B, T))
    cos, sin = rope_cos_sin(position_ids, cfg.head_dim, cfg.rope_theta)

    # additive attention bias: causal AND (key is not padding)
    causal = jnp.tril(jnp.ones((T, T), dtype=bool))  # [T, T]
    bias = jnp.where(causal, 0.0, -1e30)[None, None]  # [1, 1, T, T]
    if attn_mask is not None:
        key_ok = attn_mask[:, None, None, :].astype(bool)  # [B, 1, 1, T]
        bias = jnp.where(key_ok, bias, -1e30)

    def _layer(x, p, ll):
        x = x + attention(rmsnorm(x, p["ln1"], cfg.eps), p, cos, sin, cfg, bias, ll, lora_scale)
        return x + mlp(rmsnorm(x, p["ln2"], cfg.eps), p)

    layer_fn = jax.checkpoint(_layer) if remat else _layer

    lora_layers = lora["layers"] if lora else None
    x = params["embed"][ids]  # [B, T, hidden]
    for i, p in enumerate(params["layers"]):
        x = layer_fn(x, p, lora_layers[i] if lora_layers else None)
    return rmsnorm(x, params["norm"], cfg.eps)


def _lm_head(params, cfg: Config):
    return params["embed"].T if cfg.tie_embeddings else params["lm_head"]


def _positions(attn_mask):
    """position_ids from a (possibly left-padded) mask: 0 at the first real token, cumulative after."""
    pos = jnp.cumsum(attn_mask, axis=-1) - 1
    return jnp.clip(pos, 0, None).astype(jnp.int32)


def generate_nocache(params, prompt_ids, prompt_mask, cfg: Config, *, max_new, key, eos_id, pad_id, temperature=1.0, lora=None, lora_scale=1.0):
    """Reference implementation without a KV cache (recomputes the prefix each step).
    Kept for the cached-vs-uncached equivalence test; use `generate` for real runs.
    """
    B, L = prompt_ids.shape
    Lmax = L + max_new
    ids = jnp.concatenate([prompt_ids, jnp.full((B, max_new), pad_id, prompt_ids.dtype)], axis=1)
    mask = jnp.concatenate([prompt_mask, jnp.zeros((B, max_new), prompt_mask.dtype)], axis=1)
    gen_logp = jnp.zeros((B, Lmax), jnp.float32)
    finished = jnp.zeros(B, dtype=bool)
    keys = jax.random.split(key, max_new)
    arangeB = jnp.arange(B)

    # Per-step logits ONLY at the current position: [B, V] instead of the full
    # [B, T, V] tensor (which at vocab 152k is gigabytes and OOMs the T4 autotuner).
    # `cur` is passed as a traced index so this compiles exactly once.
    def _step(pr, i, m, c):
        h = backbone(pr, i, cfg, m, _positions(m), lora, lora_scale)  # [B, T, H]
        h_cur = jax.lax.dynamic_index_in_dim(h, c, axis=1, keepdims=False)  # [B, H]
        return h_cur @ _lm_head(pr, cfg)  # [B, V]

    step_fn = jax.jit(_step)
    for s in range(max_new):
        cur = L + s
        raw = step_fn(params, ids, mask, jnp.int32(cur - 1)).astype(jnp.float32)  # [B, V]
        if temperature > 0:
            logits = raw / temperature
            nxt = jax.random.categorical(keys[s], logits, axis=-1)
        else:
            logits = raw
            nxt = jnp.argmax(raw, axis=-1)
        lp = jax.nn.log_softmax(logits, axis=-1)[arangeB, nxt]
        active = ~finished
        nxt = jnp.where(finished, pad_id, nxt)
        ids = ids.at[:, cur].set(nxt)
        mask = mask.at[:, cur].set(active.astype(mask.dtype))
        gen_logp = gen_logp.at[:, cur].set(lp * active)
        finished = finished | (nxt == eos_id)
        if bool(jnp.all(finished)):
            break

    resp_mask = mask.at[:, :L].set(0)
    return ids, mask, resp_mask, gen_logp


LORA_TARGETS = ("wq", "wk", "wv", "wo")


def init_lora(params, cfg: Config, *, rank: int = 16, seed: int = 0, targets=LORA_TARGETS):
    """LoRA adapters on attention projections. A ~ small normal, B = 0 (delta starts at 0)."""
    key = jax.random.PRNGKey(seed)
    layers = []
    for i in range(cfg.n_layers):
        layer = {}
        for t in targets:
            in_dim, out_dim = params["layers"][i][t].shape  # W stored as [in, out]
            key, sub = jax.random.split(key)
            a = jax.random.normal(sub, (in_dim, rank), jnp.float32) / jnp.sqrt(in_dim)
            b = jnp.zeros((rank, out_dim), jnp.float32)
            layer[t] = {"A": a, "B": b}
        layers.append(layer)
    return {"layers": layers}


cfg = Config(vocab_size=64, hidden=16, n_layers=2, n_heads=2, n_kv_heads=1, head_dim=8, intermediate=32, rope_theta=1e6, eps=1e-6, tie_embeddings=True)  # scaffolding: a tiny Qwen2-shaped config instead of load_params(REPO)
_k = iter(jax.random.split(jax.random.PRNGKey(0), 64))  # scaffolding
_w = lambda *s: jax.random.normal(next(_k), s, jnp.float32) * 0.1  # scaffolding
params = {"embed": _w(64, 16), "norm": jnp.ones(16), "layers": [{"ln1": jnp.ones(16), "wq": _w(16, 16), "bq": _w(16), "wk": _w(16, 8), "bk": _w(8), "wv": _w(16, 8), "bv": _w(8), "wo": _w(16, 16), "ln2": jnp.ones(16), "w_gate": _w(16, 32), "w_up": _w(16, 32), "w_down": _w(32, 16)} for _ in range(2)]}  # scaffolding: random weights in load_params' layout
lora = init_lora(params, cfg, rank=4, seed=0)  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
prompt_ids = jnp.array([[0, 5, 6, 7], [3, 4, 5, 6]], jnp.int32)  # scaffolding: two left-padded prompts of one length
prompt_mask = jnp.array([[0, 1, 1, 1], [1, 1, 1, 1]], jnp.int32)  # scaffolding
for step in range(3):  # scaffolding: three calls of the reference sampler, one per GRPO-style round
    key, gk = jax.random.split(key)  # scaffolding
    out = generate_nocache(params, prompt_ids, prompt_mask, cfg, max_new=3, key=gk, eos_id=cfg.vocab_size, pad_id=0, temperature=1.0, lora=lora)  # scaffolding: an eos id that is never sampled
    lora = jax.tree_util.tree_map(lambda x: x + 0.01, lora)  # scaffolding: stands in for the GRPO adapter update
_report({"jit(_step)"}, 9)  # scaffolding: 3 rounds x 3 tokens
