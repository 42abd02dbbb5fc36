# source: https://github.com/syrkis/aphasia/blob/d0ce63ec820ed317927da91dcf39f65d5e1feca0/src/train.py
# expect: none
# runtime: COMPILES 2 CALLS 100
# why: train_fn builds jit(partial(update_fn, opt)) in its body, and update_fn calls the separately jitted grad_fn, but train_fn runs once, so the update compiles once (the inner jit is inlined) and the module-level jit_loss_fn compiles once for all evaluations.

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
# src/train.py of syrkis/aphasia at d0ce63e, with src/model.py (model and loss_fn) and src/data.py (get_batches)
# inlined above it; train_fn is called once, as notebook.ipynb does
import jax
import jax.numpy as jnp
from jax import grad, jit, vmap, value_and_grad
import optax
from functools import partial
from tqdm import tqdm


# --- src/model.py ---
# functions
def head_fn(params, x):
    x = [head_apply_fn(params['head'][f'head_{i}'], x) for i in range(len(params['head']))]
    x = jnp.concatenate(x, axis=-1)
    x = jnp.dot(x, params['proj'])
    return x

def head_apply_fn(params, x):
    B, T, C = x.shape
    tril = jnp.nan_to_num(jnp.absolute(jnp.tril(jnp.ones((T, T))) - 1) * (-jnp.inf), nan=0)
    # mask = jnp.nan_to_num(jnp.triu(jnp.ones((T, T))) * (-jnp.inf), nan=0)
    H = params['key'].shape[1]
    k = jnp.dot(x, params['key'])       # B x T x H
    q = jnp.dot(x, params['query'])     # B x T x H
    wei = q @ k.transpose(0, 2, 1)      # B x T x T
    wei /= jnp.sqrt(H)                  # normalise
    wei += tril                         # mask future
    wei = jax.nn.softmax(wei, axis=-1)  # B x T x T
    v = jnp.dot(x, params['value'])     # B x T x H
    out = wei @ v                       # B x T x H
    return out

def init_head_fn(rng, embed_dim, n_heads, scale):
    head_size = embed_dim // n_heads
    rng, key_key, key_value, key_query = jax.random.split(rng, 4)
    params = {} 
    for i in range(n_heads):
        params[f'head_{i}'] = {
            'key':   jax.random.normal(key_key,   shape=(embed_dim, head_size)) * scale,
            'value': jax.random.normal(key_value, shape=(embed_dim, head_size)) * scale,
            'query': jax.random.normal(key_query, shape=(embed_dim, head_size)) * scale,
            }
    return params

def ffwd_fn(params, x):
    out = jax.nn.relu(x @ params['dense1'] + params['bias1'])
    out = out @ params['dense2'] + params['bias2']
    return out

def init_ffwd_fn(rng, embed_dim, scale=1e-2):
    rng, key1, key2 = jax.random.split(rng, 3)
    params = {
        'dense1': jax.random.normal(key1, shape=(embed_dim, 4 * embed_dim)) * scale,
        'bias1': jax.random.normal(key1, shape=(4 * embed_dim,)) * scale,
        'dense2': jax.random.normal(key2, shape=(4 * embed_dim, embed_dim)) * scale,
        'bias2': jax.random.normal(key2, shape=(embed_dim,)) * scale,
        }
    return params


def layer_norm_fn(params, x, eps=1e-6):
    gamma, beta = params['gamma'], params['beta']
    mean = jnp.mean(x, axis=-1, keepdims=True)
    std = jnp.std(x, axis=-1, keepdims=True)
    out = (x - mean) / (std + eps)
    out = out * gamma + beta
    return out

def init_layer_norm_fn(embed_dim):
    params = {
        'gamma': jnp.ones((embed_dim,)),
        'beta': jnp.zeros((embed_dim,)),
        }
    return params


def init_block_fn(rng, embed_dim, n_heads, scale):
    rng, key1, key2, key3 = jax.random.split(rng, 4)
    params = {
        'head': init_head_fn(key1, embed_dim, n_heads, scale),
        'ffwd': init_ffwd_fn(key2, embed_dim, scale),
        'proj': jax.random.normal(key3, shape=(embed_dim, embed_dim)) * scale,
        'ln1': init_layer_norm_fn(embed_dim),
        'ln2': init_layer_norm_fn(embed_dim),
        }
    return params

def block_fn(params, x):
    x = layer_norm_fn(params['ln1'], x)
    x += head_fn(params, x)
    x = layer_norm_fn(params['ln2'], x)
    x += ffwd_fn(params['ffwd'], x)
    return x


@jit
def apply_fn(params, xb):
    B, T = xb.shape
    tok_embs = params['tok_embedding'][xb]              # B x T x C
    pos_embs = params['pos_embedding'][jnp.arange(T)]   # T x C
    x = tok_embs + pos_embs
    for block in params['blocks']:
        x = block_fn(block, x)
    x = layer_norm_fn(params['layer_norm'], x)
    logits = x @ params['lm_head']                       # B x T x V
    return logits


def init_fn(rng, config):
    rng, key1, key2, key3 = jax.random.split(rng, 4)
    params = {
        'tok_embedding': jax.random.normal(key1, shape=(config['vocab_size'], config['embed_dim'])) * config['scale'],
        'pos_embedding': jax.random.normal(key2, shape=(config['block_size'], config['embed_dim'])) * config['scale'],
        'lm_head': jax.random.normal(key3, shape=(config['embed_dim'], config['vocab_size'])) * config['scale'],
        'blocks': [init_block_fn(key1, config['embed_dim'], config['n_heads'], scale=config['scale']) for _ in range(config['n_layers'])],
        'layer_norm': init_layer_norm_fn(config['embed_dim']),
        }
    return params


def loss_fn(params, xb, yb):
    # we cant to minimise cross entropy
    logits = apply_fn(params, xb) # B x T x C
    B, T, C = logits.shape
    yb = yb.reshape(-1)
    logits = logits.reshape(B * T, C)
    logits = jnp.clip(logits, -100, 100)
    loss = jnp.mean(optax.softmax_cross_entropy(logits, jax.nn.one_hot(yb, C)))
    return loss


# --- scaffolding: config.yaml inlined (n_layers 6 -> 2, n_steps 2000 -> 20); data.npy replaced by random tokens ---
config = {'n_layers': 2, 'n_heads': 4, 'n_steps': 20, 'block_size': 128, 'embed_dim': 64,  # scaffolding
          'batch_size': 32, 'scale': 0.01, 'dropout': 0.2, 'vocab_size': 99, 'lr': 0.001}  # scaffolding
data = jax.random.randint(jax.random.PRNGKey(1), (20000,), 0, 99)  # scaffolding
# --- end scaffolding ---


# --- src/data.py ---
n = int(len(data) * 0.8)
train_data = data[:n]
val_data = data[n:]

# functions
def get_batches(rng, split, buffer=128):
    data = train_data if split == 'train' else val_data
    while True:
        rng, key = jax.random.split(rng)
        idxs = jax.random.randint(key, (buffer, config['batch_size']), 0, len(data) - config['block_size'])
        for i in range(buffer):
            idx = idxs[i][:, None] + jnp.arange(config['block_size'])
            batch = data[idx]
            xb, yb = batch[:, :-1], batch[:, 1:]
            yield xb, yb


# --- src/train.py ---
grad_fn = jit(value_and_grad(loss_fn))
def update_fn(optimizer, opt_state, params, xb, yb, clip_value=1.0):
    loss, grads = grad_fn(params, xb, yb)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return opt_state, params, loss

def train_fn(rng, opt, opt_state, params, config, train_batches, eval_batches):
    update = jit(partial(update_fn, opt))
    pbar = tqdm(range(config['n_steps']))
    for step in pbar:
        rng, key = jax.random.split(rng)
        xb, yb = next(train_batches)
        opt_state, params, loss = update(opt_state, params, xb, yb)
        pbar.set_description(f'train: {loss:.4f} | eval: {999 if "eval_loss" not in locals() else eval_loss:.4f}')
        if step % (config['n_steps'] // 20) == 0:
            eval_loss = evaluate_fn(train_batches, eval_batches, params)
    return opt_state, params

 
jit_loss_fn = jit(partial(loss_fn))
def evaluate_fn(train_batches, eval_batches, params, n_steps=4):
    train_loss = 0
    eval_loss = 0
    for _ in range(n_steps):
        # xb, yb = next(train_batches)
        # train_loss += jit_loss_fn(xb, yb)
        xb, yb = next(eval_batches)
        eval_loss += jit_loss_fn(params, xb, yb)
    train_loss /= n_steps
    eval_loss /= n_steps
    return eval_loss  # train_loss, eval_loss


# notebook.ipynb cells
rng = jax.random.PRNGKey(0)  # scaffolding
params = init_fn(rng, config)  # scaffolding
train_batches = get_batches(rng, 'train')
eval_batches = get_batches(rng, 'test')
opt = optax.adamw(config['lr'])
opt_state = opt.init(params)
key = jax.random.PRNGKey(2)  # scaffolding
opt_state, params = train_fn(key, opt, opt_state, params, config, train_batches, eval_batches)
print(sorted(set(_COMPILED)))  # scaffolding
_report({"jit(update_fn)", "jit(loss_fn)"}, config['n_steps'] + 4 * config['n_steps'])  # scaffolding: 20 updates, 20 evaluations of 4 batches
