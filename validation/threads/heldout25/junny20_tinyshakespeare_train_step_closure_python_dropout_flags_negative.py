# source: https://github.com/Junny20/jax-transformer-tinyshakespeare/blob/072b52aa10e6bf30a8e59ae3d0bf97c331c1f965/vmap/train.py
# expect: none
# runtime: COMPILES 2 CALLS 20
# why: train_step/eval_step are jitted inside factories and close over Python config values used in Python ifs, but the factories run once and the values never change, so each compiles once.
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


# file: src/model.py
import jax
import jax.numpy as jnp


def layer_norm(x, gamma, beta, eps: float = 1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return gamma * (x - mean) / jnp.sqrt(var + eps) + beta


def gelu(x):
    return 0.5 * x * (1.0 + jnp.tanh(jnp.sqrt(2.0 / jnp.pi) * (x + 0.044715 * x ** 3)))


def _dropout(x, key, rate: float):
    mask = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(mask, x / (1.0 - rate), 0.0)


def mha_forward(x, p, n_heads: int, key, drop_rate: float, training: bool):
    B, T, d = x.shape
    d_head = d // n_heads

    q = x @ p['wq'] + p['bq']
    k = x @ p['wk'] + p['bk']
    v = x @ p['wv'] + p['bv']

    q = q.reshape(B, T, n_heads, d_head).transpose(0, 2, 1, 3)
    k = k.reshape(B, T, n_heads, d_head).transpose(0, 2, 1, 3)
    v = v.reshape(B, T, n_heads, d_head).transpose(0, 2, 1, 3)

    scores = (q @ k.transpose(0, 1, 3, 2)) * (d_head ** -0.5)
    causal_mask = jnp.tril(jnp.ones((T, T), dtype=jnp.bool_))
    scores = jnp.where(causal_mask, scores, -1e9)
    weights = jax.nn.softmax(scores, axis=-1)

    if training and drop_rate > 0.0:
        weights = _dropout(weights, key, drop_rate)

    out = (weights @ v).transpose(0, 2, 1, 3).reshape(B, T, d)
    return out @ p['wo'] + p['bo']


def mlp_forward(x, p, key, drop_rate: float, training: bool):
    h = gelu(x @ p['w1'] + p['b1'])
    if training and drop_rate > 0.0:
        h = _dropout(h, key, drop_rate)
    return h @ p['w2'] + p['b2']


def decoder_block(x, p, n_heads: int, keys, drop_rate: float, training: bool):
    attn_out = mha_forward(
        layer_norm(x, p['ln1']['gamma'], p['ln1']['beta']),
        p['attn'], n_heads,
        keys[0] if keys is not None else None,
        drop_rate, training,
    )
    if training and drop_rate > 0.0:
        attn_out = _dropout(attn_out, keys[1], drop_rate)
    x = x + attn_out

    mlp_out = mlp_forward(
        layer_norm(x, p['ln2']['gamma'], p['ln2']['beta']),
        p['mlp'],
        keys[2] if keys is not None else None,
        drop_rate, training,
    )
    if training and drop_rate > 0.0:
        mlp_out = _dropout(mlp_out, keys[3], drop_rate)
    x = x + mlp_out

    return x


def transformer_forward(params, x, n_heads: int, n_layers: int, drop_rate: float, key, training: bool):
    B, T = x.shape

    if training and drop_rate > 0.0:
        all_keys = jax.random.split(key, 1 + n_layers * 4)
        embed_key = all_keys[0]
        block_keys = [all_keys[1 + i * 4 : 1 + (i + 1) * 4] for i in range(n_layers)]
    else:
        embed_key = None
        block_keys = [None] * n_layers

    h = params['embed']['token'][x] + params['embed']['position'][:T]
    if training and drop_rate > 0.0:
        h = _dropout(h, embed_key, drop_rate)

    for i in range(n_layers):
        h = decoder_block(h, params['blocks'][i], n_heads, block_keys[i], drop_rate, training)

    h = layer_norm(h, params['ln_f']['gamma'], params['ln_f']['beta'])
    return h @ params['lm_head']


# file: init/attention.py
import jax
import jax.numpy as jnp


def init_params(key, cfg: dict) -> dict:
    n_layers   = cfg['n_layers']
    d_model    = cfg['d_model']
    d_ff       = cfg['d_ff']
    ctx_len    = cfg['ctx_len']
    vocab_size = cfg['vocab_size']
    proj_std   = 0.02 / (2 * n_layers) ** 0.5

    def randn(k, *shape, std=0.02):
        return jax.random.normal(k, shape) * std

    def make_block(k):
        ks = jax.random.split(k, 6)
        return {
            'ln1': {
                'gamma': jnp.ones((d_model,)),
                'beta':  jnp.zeros((d_model,)),
            },
            'attn': {
                'wq': randn(ks[0], d_model, d_model),
                'bq': jnp.zeros((d_model,)),
                'wk': randn(ks[1], d_model, d_model),
                'bk': jnp.zeros((d_model,)),
                'wv': randn(ks[2], d_model, d_model),
                'bv': jnp.zeros((d_model,)),
                'wo': randn(ks[3], d_model, d_model, std=proj_std),
                'bo': jnp.zeros((d_model,)),
            },
            'ln2': {
                'gamma': jnp.ones((d_model,)),
                'beta':  jnp.zeros((d_model,)),
            },
            'mlp': {
                'w1': randn(ks[4], d_model, d_ff),
                'b1': jnp.zeros((d_ff,)),
                'w2': randn(ks[5], d_ff, d_model, std=proj_std),
                'b2': jnp.zeros((d_model,)),
            },
        }

    key, k_tok, k_pos, k_head = jax.random.split(key, 4)
    block_keys = jax.random.split(key, n_layers)

    return {
        'embed': {
            'token':    randn(k_tok, vocab_size, d_model),
            'position': randn(k_pos, ctx_len,    d_model),
        },
        'blocks': [make_block(block_keys[i]) for i in range(n_layers)],
        'ln_f': {
            'gamma': jnp.ones((d_model,)),
            'beta':  jnp.zeros((d_model,)),
        },
        'lm_head': randn(k_head, d_model, vocab_size),
    }


# file: vmap/tokenizer.py
import numpy as np


def build_vocab(text: str):
    chars = sorted(set(text))
    stoi = {c: i for i, c in enumerate(chars)}
    itos = {i: c for i, c in enumerate(chars)}
    return stoi, itos, len(chars)


def encode(text: str, stoi: dict) -> np.ndarray:
    return np.array([stoi[c] for c in text], dtype=np.int32)


def decode(ids, itos: dict) -> str:
    return ''.join(itos[int(i)] for i in ids)


# file: vmap/data_loader.py
import numpy as np
import jax
import jax.numpy as jnp


def get_batch(data: np.ndarray, batch_size: int, ctx_len: int, key):
    n = len(data) - ctx_len
    key, subkey = jax.random.split(key)
    ix = np.array(jax.random.randint(subkey, (batch_size,), 0, n))
    x = jnp.array(np.stack([data[i : i + ctx_len] for i in ix]))
    y = jnp.array(np.stack([data[i + 1 : i + ctx_len + 1] for i in ix]))
    return x, y, key


# file: vmap/train.py
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))

import time
import jax
import jax.numpy as jnp
import optax
import numpy as np

# from src.model import transformer_forward  # scaffolding: inlined above
# from init.attention import init_params  # scaffolding: inlined above
# from vmap.tokenizer import build_vocab, encode  # scaffolding: inlined above
# from vmap.data_loader import get_batch  # scaffolding: inlined above


def cross_entropy_loss(logits, targets):
    B, T, V = logits.shape
    return optax.softmax_cross_entropy_with_integer_labels(
        logits.reshape(B * T, V), targets.reshape(B * T)
    ).mean()


def make_train_step(cfg: dict, optimizer):
    n_heads   = cfg['n_heads']
    n_layers  = cfg['n_layers']
    drop_rate = cfg['dropout']

    @jax.jit
    def train_step(params, opt_state, x, y, key):
        def loss_fn(p):
            logits = transformer_forward(p, x, n_heads, n_layers, drop_rate, key, training=True)
            return cross_entropy_loss(logits, y)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        return new_params, new_opt_state, loss

    return train_step


def make_eval_step(cfg: dict):
    n_heads    = cfg['n_heads']
    n_layers   = cfg['n_layers']
    _dummy_key = jax.random.PRNGKey(0)

    @jax.jit
    def eval_step(params, x, y):
        logits = transformer_forward(params, x, n_heads, n_layers, 0.0, _dummy_key, training=False)
        return cross_entropy_loss(logits, y)

    return eval_step


def benchmark_jit_vs_eager(cfg: dict, optimizer, params, opt_state, x, y, n_trials: int = 20):
    n_heads   = cfg['n_heads']
    n_layers  = cfg['n_layers']
    drop_rate = cfg['dropout']
    train_step = make_train_step(cfg, optimizer)

    key = jax.random.PRNGKey(99)
    p, s, _ = train_step(params, opt_state, x, y, key)
    jax.block_until_ready(p)

    t0 = time.perf_counter()
    for _ in range(n_trials):
        key, k = jax.random.split(key)
        p, s, loss = train_step(p, s, x, y, k)
    jax.block_until_ready(loss)
    jit_ms = (time.perf_counter() - t0) / n_trials * 1000

    def eager_step(p, s, x, y, key):
        def loss_fn(params):
            logits = transformer_forward(params, x, n_heads, n_layers, drop_rate, key, training=True)
            return cross_entropy_loss(logits, y)
        loss, grads = jax.value_and_grad(loss_fn)(p)
        updates, new_s = optimizer.update(grads, s, p)
        return optax.apply_updates(p, updates), new_s, loss

    p2, s2, _ = eager_step(params, opt_state, x, y, jax.random.PRNGKey(0))
    jax.block_until_ready(p2)

    t0 = time.perf_counter()
    for _ in range(n_trials):
        key, k = jax.random.split(key)
        p2, s2, loss2 = eager_step(p2, s2, x, y, k)
    jax.block_until_ready(loss2)
    eager_ms = (time.perf_counter() - t0) / n_trials * 1000

    return jit_ms, eager_ms, eager_ms / jit_ms


def train(cfg: dict, data_train: np.ndarray, data_val: np.ndarray):
    batch_size   = cfg['batch_size']
    ctx_len      = cfg['ctx_len']
    max_steps    = cfg['max_steps']
    warmup_steps = cfg['warmup_steps']
    lr           = cfg['lr']
    weight_decay = cfg['weight_decay']
    val_interval = cfg['val_interval']
    val_batches  = cfg['val_batches']

    schedule = optax.warmup_cosine_decay_schedule(
        init_value=0.0,
        peak_value=lr,
        warmup_steps=warmup_steps,
        decay_steps=max_steps,
        end_value=lr * 0.1,
    )
    optimizer = optax.chain(
        optax.clip_by_global_norm(1.0),
        optax.adamw(learning_rate=schedule, weight_decay=weight_decay),
    )

    key = jax.random.PRNGKey(42)
    key, init_key = jax.random.split(key)
    params    = init_params(init_key, cfg)
    opt_state = optimizer.init(params)

    n_params = sum(a.size for a in jax.tree_util.tree_leaves(params))
    print(f"Model: {n_params:,} parameters")
    print(f"Device: {jax.devices()[0]}")
    print(f"Training: {max_steps} steps | batch={batch_size} | ctx={ctx_len}")

    train_step = make_train_step(cfg, optimizer)
    eval_step  = make_eval_step(cfg)

    train_losses: list[float]            = []
    val_losses:   list[tuple[int, float]] = []

    for step in range(max_steps):
        key, bk, sk = jax.random.split(key, 3)
        x, y, _ = get_batch(data_train, batch_size, ctx_len, bk)

        t0 = time.perf_counter()
        params, opt_state, loss = train_step(params, opt_state, x, y, sk)
        loss.block_until_ready()
        ms = (time.perf_counter() - t0) * 1000

        train_losses.append(float(loss))

        if step % val_interval == 0 or step == max_steps - 1:
            val_loss = 0.0
            for _ in range(val_batches):
                key, vk = jax.random.split(key)
                vx, vy, _ = get_batch(data_val, batch_size, ctx_len, vk)
                val_loss += float(eval_step(params, vx, vy))
            val_loss /= val_batches
            val_losses.append((step, val_loss))
            print(f"step {step:5d} | train {float(loss):.4f} | val {val_loss:.4f} | {ms:.1f} ms/step")

    return params, optimizer, opt_state, train_losses, val_losses


if __name__ == '__main__':
    # scaffolding: the repo reads params/configs/base.yaml and data/tinyshakespeare.txt, then benchmarks and plots;
    # here the same keys with small sizes (base.yaml: 6 layers, 6 heads, d_model 384, ctx 256, batch 64, 5000 steps) and a short text
    cfg = {'n_layers': 2, 'n_heads': 2, 'd_model': 32, 'd_ff': 64, 'ctx_len': 16, 'dropout': 0.1, 'batch_size': 4,  # scaffolding
           'max_steps': 12, 'lr': 3.0e-4, 'weight_decay': 0.1, 'warmup_steps': 2, 'val_interval': 5, 'val_batches': 2}  # scaffolding
    text = "First Citizen:\nBefore we proceed any further, hear me speak.\nAll:\nSpeak, speak.\n" * 20  # scaffolding

    stoi, itos, vocab_size = build_vocab(text)
    cfg['vocab_size'] = vocab_size

    data = encode(text, stoi)
    n = int(0.9 * len(data))
    data_train, data_val = data[:n], data[n:]

    params, optimizer, opt_state, train_losses, val_losses = train(cfg, data_train, data_val)
    _report({"jit(train_step)", "jit(eval_step)"}, 12 + 4 * 2)  # scaffolding: 12 train steps; validation at steps 0, 5, 10, 11 with 2 batches each
