# source: https://github.com/Zayed024/nanozero-jax/commit/3d93323a2f295a6819c86f033e19994558fc0338
# expect: none
# runtime: COMPILES 2 CALLS 12
# why: after the commit _prefill_jit/_decode_jit are module-level jits with cfg, cache_len and lora_scale static and the LoRA adapter traced, so 3 GRPO steps compile prefill and decode once each (2 compiles, 12 calls).
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


# --- nanozero.py (after the commit; the model, KV-cache sampler and LoRA init; the HF loader, backbone/forward, sequence_logprobs, generate_nocache and the GRPO loss are cut) ---
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


def mlp(x, p):
    return (jax.nn.silu(x @ p["w_gate"]) * (x @ p["w_up"])) @ p["w_down"]


def _lm_head(params, cfg: Config):
    return params["embed"].T if cfg.tie_embeddings else params["lm_head"]


def _positions(attn_mask):
    """position_ids from a (possibly left-padded) mask: 0 at the first real token, cumulative after."""
    pos = jnp.cumsum(attn_mask, axis=-1) - 1
    return jnp.clip(pos, 0, None).astype(jnp.int32)


def prefill(params, ids, mask, cfg: Config, *, cache_len: int, lora=None, lora_scale=1.0):
    """Run the prompt through the backbone, caching post-RoPE K/V per layer in
    zero-padded buffers of length `cache_len`. Returns (last_hidden [B,H], cache)."""
    B, L = ids.shape
    position_ids = _positions(mask)
    cos, sin = rope_cos_sin(position_ids, cfg.head_dim, cfg.rope_theta)
    causal = jnp.tril(jnp.ones((L, L), dtype=bool))
    bias = jnp.where(causal, 0.0, -1e30)[None, None]
    bias = jnp.where(mask[:, None, None, :].astype(bool), bias, -1e30)

    nh, nkv, hd = cfg.n_heads, cfg.n_kv_heads, cfg.head_dim
    lora_layers = lora["layers"] if lora else None
    x = params["embed"][ids]
    cache = []
    for i, p in enumerate(params["layers"]):
        ll = lora_layers[i] if lora_layers else None
        h = rmsnorm(x, p["ln1"], cfg.eps)
        q, k, v = _attn_qkv(h, p, cfg, ll, lora_scale)
        q = apply_rope(q, cos, sin)
        k = apply_rope(k, cos, sin)

        # cache the roped K and V, padded out to the full generation buffer
        k_buf = jnp.zeros((B, cache_len, nkv, hd), k.dtype).at[:, :L].set(k)
        v_buf = jnp.zeros((B, cache_len, nkv, hd), v.dtype).at[:, :L].set(v)
        cache.append({"k": k_buf, "v": v_buf})

        kx = jnp.repeat(k, nh // nkv, axis=2).transpose(0, 2, 1, 3)
        vx = jnp.repeat(v, nh // nkv, axis=2).transpose(0, 2, 1, 3)
        qx = q.transpose(0, 2, 1, 3)
        scores = (qx @ kx.transpose(0, 1, 3, 2)) / math.sqrt(hd)
        attn = jax.nn.softmax(scores.astype(jnp.float32) + bias, axis=-1).astype(x.dtype)
        out = (attn @ vx).transpose(0, 2, 1, 3).reshape(B, L, nh * hd)
        x = x + (out @ p["wo"] + _lora_delta(out, ll, "wo", lora_scale))
        x = x + mlp(rmsnorm(x, p["ln2"], cfg.eps), p)
    x = rmsnorm(x, params["norm"], cfg.eps)
    return x[:, -1], cache  # last position's hidden state -> first next-token logits


def _decode_step(params, cache, tok, cur, pos_row, key_mask, cfg: Config, lora, lora_scale):
    """One incremental decode step. tok [B] (the token just placed at buffer column
    `cur`), pos_row [B] (its RoPE position per row), key_mask [B, cache_len] (1 for
    every valid key including `cur`). Returns (next-token logits [B,V], updated cache)."""
    nh, nkv, hd = cfg.n_heads, cfg.n_kv_heads, cfg.head_dim
    B = tok.shape[0]
    cos, sin = rope_cos_sin(pos_row[:, None], cfg.head_dim, cfg.rope_theta)  # [B,1,hd]
    lora_layers = lora["layers"] if lora else None

    x = params["embed"][tok][:, None, :]  # [B,1,H]
    new_cache = []
    for i, p in enumerate(params["layers"]):
        ll = lora_layers[i] if lora_layers else None
        h = rmsnorm(x, p["ln1"], cfg.eps)
        q, k, v = _attn_qkv(h, p, cfg, ll, lora_scale)  # [B,1,...]
        q = apply_rope(q, cos, sin)
        k = apply_rope(k, cos, sin)

        k_buf = jax.lax.dynamic_update_slice(cache[i]["k"], k, (0, cur, 0, 0))
        v_buf = jax.lax.dynamic_update_slice(cache[i]["v"], v, (0, cur, 0, 0))
        new_cache.append({"k": k_buf, "v": v_buf})

        kx = jnp.repeat(k_buf, nh // nkv, axis=2)  # [B,C,nh,hd]
        vx = jnp.repeat(v_buf, nh // nkv, axis=2)
        # q [B,1,nh,hd] vs all cached keys: scores [B,nh,C]
        scores = jnp.einsum("bxhd,bchd->bhc", q, kx) / math.sqrt(hd)
        scores = jnp.where(key_mask[:, None, :].astype(bool), scores.astype(jnp.float32), -1e30)
        attn = jax.nn.softmax(scores, axis=-1).astype(x.dtype)
        out = jnp.einsum("bhc,bchd->bhd", attn, vx).reshape(B, 1, nh * hd)
        x = x + (out @ p["wo"] + _lora_delta(out, ll, "wo", lora_scale))
        x = x + mlp(rmsnorm(x, p["ln2"], cfg.eps), p)
    x = rmsnorm(x, params["norm"], cfg.eps)[:, 0]  # [B,H]
    return x @ _lm_head(params, cfg), new_cache


# Module-level jits, compiled ONCE per shape for the whole training run. Defining jits
# inside `generate` (the previous version) is an anti-pattern: each call builds a fresh
# closure with `lora` baked in as a compile-time CONSTANT -> recompile every step AND
# every step's executable pins its LoRA copy in device memory (slow creep -> OOM).
# Here cfg/cache_len/lora_scale are static; params/lora are traced arguments.


# Module-level jits, compiled ONCE per shape for the whole training run. Defining jits
# inside `generate` (the previous version) is an anti-pattern: each call builds a fresh
# closure with `lora` baked in as a compile-time CONSTANT -> recompile every step AND
# every step's executable pins its LoRA copy in device memory (slow creep -> OOM).
# Here cfg/cache_len/lora_scale are static; params/lora are traced arguments.
_prefill_jit = partial(jax.jit, static_argnames=("cfg", "cache_len", "lora_scale"))(
    lambda params, ids, mask, lora, *, cfg, cache_len, lora_scale: prefill(
        params, ids, mask, cfg, cache_len=cache_len, lora=lora, lora_scale=lora_scale
    )
)
_decode_jit = partial(jax.jit, static_argnames=("cfg", "lora_scale"), donate_argnums=(1,))(
    lambda params, cache, tok, cur, pos_row, key_mask, lora, *, cfg, lora_scale: _decode_step(
        params, cache, tok, cur, pos_row, key_mask, cfg, lora, lora_scale
    )
)


def generate(params, prompt_ids, prompt_mask, cfg: Config, *, max_new, key, eos_id, pad_id, temperature=1.0, lora=None, lora_scale=1.0):
    """KV-cached batched sampling for left-padded prompts: prefill once, then O(1)
    work per generated token. Returns (all [B, L+max_new]):
        ids        full sequence (prompt + generation; pad after EOS)
        full_mask  1 on every real token (prompt + active generation)
        resp_mask  1 only on generated (response) token positions
        gen_logp   policy logprob of each generated token, position-aligned
    """
    B, L = prompt_ids.shape
    Lmax = L + max_new
    ids = jnp.concatenate([prompt_ids, jnp.full((B, max_new), pad_id, prompt_ids.dtype)], axis=1)
    mask = jnp.concatenate([prompt_mask, jnp.zeros((B, max_new), prompt_mask.dtype)], axis=1)
    gen_logp = jnp.zeros((B, Lmax), jnp.float32)
    finished = jnp.zeros(B, dtype=bool)
    keys = jax.random.split(key, max_new)
    arangeB = jnp.arange(B)
    plen = prompt_mask.sum(axis=1).astype(jnp.int32)  # real prompt length per row

    h_last, cache = _prefill_jit(params, prompt_ids, prompt_mask, lora, cfg=cfg, cache_len=Lmax, lora_scale=lora_scale)
    logits = (h_last @ _lm_head(params, cfg)).astype(jnp.float32)  # predicts the token at column L

    for s in range(max_new):
        cur = L + s
        raw = logits
        if temperature > 0:
            scaled = raw / temperature
            nxt = jax.random.categorical(keys[s], scaled, axis=-1)
        else:
            scaled = raw
            nxt = jnp.argmax(raw, axis=-1)
        lp = jax.nn.log_softmax(scaled, axis=-1)[arangeB, nxt]
        active = ~finished
        nxt = jnp.where(finished, pad_id, nxt)
        ids = ids.at[:, cur].set(nxt)
        mask = mask.at[:, cur].set(active.astype(mask.dtype))
        gen_logp = gen_logp.at[:, cur].set(lp * active)
        finished = finished | (nxt == eos_id)
        if bool(jnp.all(finished)) or s == max_new - 1:
            break
        # feed the just-placed token through one incremental step -> logits for cur+1
        logits, cache = _decode_jit(params, cache, nxt, jnp.int32(cur), plen + s, mask, lora, cfg=cfg, lora_scale=lora_scale)

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
lora = init_lora(params, cfg, rank=4, seed=0)  # scaffolding: train.py's init_lora call (rank 16 there)
key = jax.random.PRNGKey(0)  # scaffolding
prompt_ids = jnp.array([[0, 5, 6, 7], [3, 4, 5, 6]], jnp.int32)  # scaffolding: two left-padded prompts of one length
prompt_mask = jnp.array([[0, 1, 1, 1], [1, 1, 1, 1]], jnp.int32)  # scaffolding
for step in range(3):  # scaffolding: train.py's GRPO loop, 3 steps
    key, pk, gk = jax.random.split(key, 3)  # scaffolding
    full_ids, full_mask, resp_mask, old_lp = generate(  # scaffolding: the train.py call
        params, prompt_ids, prompt_mask, cfg, max_new=4, key=gk, eos_id=cfg.vocab_size, pad_id=0, temperature=1.0, lora=lora  # scaffolding: an eos id that is never sampled, so every step decodes 4 tokens
    )  # scaffolding
    lora = jax.tree_util.tree_map(lambda x: x + 0.01, lora)  # scaffolding: stands in for the GRPO optimizer update of the adapter
_report({"jit(<lambda>)"}, 12)  # scaffolding: per step one prefill + 3 decode calls
