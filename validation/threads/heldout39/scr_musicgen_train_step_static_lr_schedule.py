# source: https://github.com/Aalanli/MusicGeneration/blob/5338b7be7efabf7f12859f275bd49df6da29380d/jax_models/train_jax.py
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: train_step is jitted with the lr schedule function as a static argument; the same function object is passed every step and the data batches have one fixed shape, so train_step compiles once.

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
# jax_models/train_jax.py of Aalanli/MusicGeneration at 5338b7b: the training part (cross_entropy, train_step with
# the lr scheduler as a static argument, train_steps), with jax_models/jax_transformer.py inlined first, whole.
# --- jax_models/jax_transformer.py ---
import functools

from typing import Callable
import math

import jax
from jax import numpy as jnp, lax, random
import flax
from flax import linen as nn

def masked_fill(mask, a, fill):
    return jax.lax.select(mask, a, jax.lax.broadcast(fill, a.shape))

def generate_square_subsequent_mask(sz):
    mask = ~(jnp.triu(jnp.ones((sz, sz), jnp.int32)) == 1)
    mask = mask.astype(jnp.float32).T
    mask = masked_fill(mask == 0, mask, float('-inf'))
    return mask

def get_slopes(n):
    def get_slopes_power_of_2(n):
        start = (2**(-2**-(math.log2(n)-3)))
        ratio = start
        return [start*ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)                   #In the paper, we only train models that have 2^a heads for some a. This function has
    else:                                                 #some good properties that only occur when the input is a power of 2. To maintain that even
        closest_power_of_2 = 2**math.floor(math.log2(n))  #when the number of heads is not a power of 2, we use this workaround. 
        return get_slopes_power_of_2(closest_power_of_2) + get_slopes(2*closest_power_of_2)[0::2][:n-closest_power_of_2]

@functools.partial(jax.jit, static_argnums=[0, 1])
def construct_alibi(max_seq_len, attn_heads):
    slopes = jnp.array(get_slopes(attn_heads))
    slopes = jnp.expand_dims(slopes, (1, 2))
    alibi = slopes * jnp.repeat(jnp.expand_dims(jnp.arange(0, max_seq_len), (0, 1)), attn_heads, 0)
    
    mask = generate_square_subsequent_mask(max_seq_len)
    mask = jnp.expand_dims(mask, (0,)) + alibi
    return mask

@jax.jit
def attn(q, k, v, mask=None):
    depth = q.shape[-1]
    w = jnp.matmul(q, jnp.transpose(k, (0, 1, 3, 2)))
    w = w / jnp.sqrt(depth)
    if mask is not None:
        w = w + mask[None]
    a = jax.nn.softmax(w, -1)
    out = jnp.matmul(a, v)
    return out

@functools.partial(jax.jit, static_argnums=3)
def chunked_attn(q, k, v, block_n, mask=None):
    b, h, l, d = q.shape
    k = jnp.transpose(k, (0, 1, 3, 2)) # b, h, d, l
    y = jnp.zeros_like(v)

    for i in range(0, l-block_n, block_n):
        a = jnp.matmul(q[:, :, i:i+block_n, :], k) / jnp.sqrt(d)
        a += mask[i:i+block_n]
        a = jax.nn.softmax(a)
        h = jnp.matmul(a, v)
        y = jax.lax.dynamic_update_slice(y, h, (0, 0, i, 0))
    return y


def casual_conv(features, kernel_size):
    return nn.linear.Conv(features, kernel_size, padding=(kernel_size-1, 0))


class MultiHeadAttn(nn.Module):
    heads: int
    @nn.compact
    def __call__(self, x, mask=None):
        b, l, d = x.shape
        x = nn.Dense(d * 3)(x)
        x = jnp.reshape(x, (b, l, 3, self.heads, -1))
        x = jnp.transpose(x, (0, 2, 3, 1, 4))
        q, k, v = x[:, 0], x[:, 1], x[:, 2]
        y = attn(q, k, v, mask)
        y = jnp.reshape(jnp.transpose(y, (0, 2, 1, 3)), (b, l, d))
        return y

class AttnProj(nn.Module):
    heads: int
    expansion: int = 4
    dropout: int = 0.1
    act: Callable = nn.activation.gelu
    @nn.compact
    def __call__(self, x, mask=None):
        d = x.shape[-1]
        x1 = MultiHeadAttn(self.heads)(x, mask)
        x = nn.Dropout(self.dropout, deterministic=True)(x1) + x
        x = nn.LayerNorm()(x) 
        x1 = self.act(nn.Dense(d * self.expansion)(x))
        x1 = nn.Dropout(self.dropout, deterministic=True)(x1)
        x1 = nn.Dense(d)(x)
        x = x + x1
        x = nn.LayerNorm()(x)
        return x

class AlibiTransformer(nn.Module):
    heads: int
    vocab: int
    d_model: int
    n_layers: int
    def setup(self):
        self.layers = [AttnProj(self.heads) for i in range(self.n_layers)]
        self.embed = nn.Embed(self.vocab, self.d_model)
        self.out_proj = nn.Dense(self.vocab)

    def __call__(self, x, mask=None):
        l = x.shape[-1]
        if mask is None:
            mask = construct_alibi(l, self.heads)
        h = self.embed(x)
        for layer in self.layers:
            h = layer(h, mask)
        logits = self.out_proj(h)
        return logits



# --- jax_models/train_jax.py ---
import os
import math
from dataclasses import asdict
import flax
from flax.training import train_state
import optax
import tqdm


def scheduler(d_model: int, warmup_steps: int) -> optax.Schedule:
    slope = warmup_steps ** (-1.5)
    const = 1 / math.sqrt(d_model)
    def lr_schedule1(step):
        arg1 = 1 / jnp.sqrt(step + 1)
        arg2 = (step + 1) * slope
        return const * jnp.minimum(arg1, arg2)
    return lr_schedule1

def get_ckpt_states(model: train_state.TrainState):
    param_dict = asdict(model)
    checkpointable = ['step', 'params', 'opt_state']
    return {k: v for (k, v) in param_dict.items() if k in checkpointable}

def get_model(rng, args):
    model = AlibiTransformer(args['heads'], args['vocab'], args['d_model'], args['n_layers'])
    params = model.init(rng, jnp.ones((4, 100), jnp.int32))
    tx = optax.adam(args['lr'])
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


def log_scalars(log: dict, step, prefix=''):
    prefix = prefix + "/"
    prefix_copy = {f'{(prefix + k)}': v for k, v in log.items()}
    print(prefix_copy, step)  # scaffolding: wandb.log(prefix_copy, step=step)

def zero_scalar(log: dict):
    for k in log: log[k] = 0

def div_scalar(log: dict, a):
    for k in log: log[k] = log[k] / a

def sum_scalar(log1: dict, log2: dict):
    for k in log1: log1[k] += log2[k]

@jax.jit
def cross_entropy(logits, truth):
    logits = jax.nn.log_softmax(logits, -1)
    truth = jnp.expand_dims(truth, -1)
    index_row = jax.vmap(lambda a, b: a[b], 0)
    index_batch = jax.vmap(index_row, 0)
    vals = index_batch(logits, truth)
    return -jnp.mean(vals) 

@functools.partial(jax.jit, static_argnums=2)
def train_step(model: train_state.TrainState, data, lr_scheduler=None):
    def loss_fn(params):
        logits = model.apply_fn(params, data[:, :-1])
        loss = cross_entropy(logits, data[:, 1:])
        loss /= data.shape[0] # scale loss by batch size, so every run with different batch size is consistent
        return loss, logits
    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(model.params)
    accuracy = jnp.mean(jnp.argmax(logits, -1) == data[:, 1:])
    model = model.apply_gradients(grads=grads)

    metric = {'loss': loss, 'accuracy': accuracy}
    if lr_scheduler is not None:
        metric['lr'] = lr_scheduler(model.step)
    return model, metric


def train_steps(steps, model: train_state.TrainState, data_gen, metric_step, check_point_step, root_dir, lr_scheduler=None):
    metrics = {'accuracy': 0, 'loss': 0}
    log_steps = model.step
    for i in tqdm.tqdm(range(steps)):
        data = data_gen.get()
        model, metric0 = train_step(model, data, lr_scheduler)
        sum_scalar(metrics, metric0)
        if ((log_steps + 1) % metric_step) == 0:
            div_scalar(metrics, metric_step)
            log_scalars(metrics, log_steps // 16, 'train')
            zero_scalar(metrics)
        log_steps += 1
        if ((log_steps + 1) % check_point_step) == 0:
            pass  # scaffolding: save_checkpoint(root_dir, get_ckpt_states(model), log_steps, keep=5, overwrite=True)
    return model


class _Data:  # scaffolding: stand-in for data.data_jax.Data (fixed-size random token batches)
    def __init__(self, seq_len, batch_size):  # scaffolding
        self.key, self.shape = jax.random.PRNGKey(1), (batch_size, seq_len)  # scaffolding
    def get(self):  # scaffolding
        self.key, k = jax.random.split(self.key)  # scaffolding
        return jax.random.randint(k, self.shape, 0, 248)  # scaffolding


def get_dataset(batch_size, seq_len):
    data = _Data(seq_len, batch_size)  # scaffolding: Data(datadir, seq_len, batch_size)
    return data

lr_schedule = scheduler(512, 50000)

args = dict(
    heads=8,
    vocab=248,
    d_model=64,  # scaffolding: 512 in the script
    n_layers=2,  # scaffolding: 8 in the script
    lr=lr_schedule,
    batch_size=4,
    train_seq_len=65  # scaffolding: 1025 in the script
)

rng = jax.random.PRNGKey(0)
model = get_model(rng, args)
data_gen = get_dataset(args['batch_size'], args['train_seq_len'])

model_name = 'jax-test12'
steps = 8  # scaffolding: 64 * 7000 in the script
checkpoint_step = 3000
metric_step = 4  # scaffolding: 500 in the script
model_dir = f'experiments/{model_name}'  # scaffolding: directory creation and checkpoint restore cut

model = train_steps(steps, model, data_gen, metric_step, checkpoint_step, model_dir, lr_scheduler=lr_schedule)
_report({"jit(train_step)"}, steps)  # scaffolding
