# source: https://github.com/lukaemon/minGPT-reimplemented/blob/d06243a80ec57ecaf037201d4df63546724704b9/jax_impl/infer.py
# expect: none
# runtime: COMPILES 0 CALLS 6
# why: the author's fix at d06243a drops jax.jit from infer_fn (the jitted line is commented out), so the growing context runs GPT(cfg).apply eagerly and no jitted function is recompiled.
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




# --- jax_impl/config.py (commit d06243a) ---
from flax import struct


@struct.dataclass
class Config:
    # model config
    context_window: int = 128
    n_embd: int = 192
    n_head: int = 6
    n_layer: int = 6
    dropout_prob: float = 0.1

    # data config
    vocab_size: int = 64  # used to init dataset
    sequence_len: int = 64  # used to init dataset

    # train config
    batch_size: int = 64
    learning_rate: float = 5e-4
    n_epoch = 96

    # optimizer
    b1 = 0.9
    b2 = 0.95
    weight_decay = 0.1
    grad_norm_clip = 1.0


config_set = {
    # names follow the huggingface naming conventions
    # GPT-1
    "openai-gpt": dict(n_layer=12, n_head=12, n_embd=768),  # 117M params
    # GPT-2 configs
    "gpt2": dict(n_layer=12, n_head=12, n_embd=768),  # 124M params
    "gpt2-medium": dict(n_layer=24, n_head=16, n_embd=1024),  # 350M params
    "gpt2-large": dict(n_layer=36, n_head=20, n_embd=1280),  # 774M params
    "gpt2-xl": dict(n_layer=48, n_head=25, n_embd=1600),  # 1558M params
    # Gophers
    "gopher-44m": dict(n_layer=8, n_head=16, n_embd=512),
    # (there are a number more...)
    # I made these tiny models up
    "gpt-mini": dict(n_layer=6, n_head=6, n_embd=192),
    "gpt-micro": dict(n_layer=4, n_head=4, n_embd=128),
    "gpt-nano": dict(n_layer=3, n_head=3, n_embd=48),
}

# Because I use static_argname in jax.jit
# May not need to use special struc.dataclass here for the jit to work
# Could just use native python dataclass or ml_collections.ConfigDict
# Previous config overhaul is wasted haha.
#
# Also, I don't even need to use static_argname
# Just parital(train_step, cfg=cfg, ...) to wrap it up would work as well.
# This is how Flax wmt example did it. https://github.com/google/flax/blob/a3b4cad524cd7da4f044e10700f5af51b4d29c30/examples/wmt/train.py#L528

# --- jax_impl/model.py (commit d06243a) ---
import math

import jax.numpy as jnp
from jax.tree_util import tree_map

import flax.linen as nn

# from jax_impl.config import Config  # scaffolding: inlined above

class Attention(nn.Module):
    '''multihead causal self-attention'''
    cfg: Config

    @nn.compact
    def __call__(self, x, training=True):
        b, t, c = x.shape

        # [q, k, v], each (b,t,n_embd), pool qkv transform as one huge linear transform
        qkv = jnp.split(nn.Dense(  # scaffolding: jax arrays no longer have .split(); jnp.split is the same call
            features=3 * self.cfg.n_embd, # hence 3xn_embd output
            kernel_init=nn.initializers.normal(stddev=0.02) # bias init default zeros
            )(x), 3, axis=-1) # then split
        
        # multi-head split, hc: head channel
        q, k, v = tree_map(
            lambda x: x.reshape(b, t, self.cfg.n_head, c // self.cfg.n_head).transpose((0, 2, 1, 3)),
            qkv,
        ) # (b,h,t,hc)

        att = q @ k.transpose(0, 1, 3, 2) / math.sqrt(c)  # (b,h,t,t)

        # apply causal mask
        mask = jnp.tril(jnp.ones((t, t)))
        att = jnp.where(mask==0, -jnp.inf, att)

        # compute weights
        att = nn.softmax(att, axis=-1)
        att = nn.Dropout(self.cfg.dropout_prob)(att, deterministic=not training)

        # weighted sum
        output = att @ v  # (b,h,t,hc)

        # multihead concat, (b,t,h,hc) -> (b,t,c)
        output = output.transpose((0, 2, 1, 3)).reshape(b, t, c)

        # output dense layer
        output = nn.Dense(  # ref 3
            self.cfg.n_embd, 
            kernel_init=nn.initializers.normal(stddev=0.02 / math.sqrt(2 * self.cfg.n_layer))
            )(output)

        return output


class Block(nn.Module):
    '''encoder block'''
    cfg: Config

    @nn.compact
    def __call__(self, x, training=True):

        # residual link
        output = x + Attention(self.cfg)(nn.LayerNorm()(x), training)

        mlp = nn.Sequential([
            nn.Dense(4 * self.cfg.n_embd, kernel_init=nn.initializers.normal(stddev=0.02)),
            nn.gelu,
            nn.Dense(self.cfg.n_embd, kernel_init=nn.initializers.normal(stddev=0.02 / math.sqrt(2 * self.cfg.n_layer))),  # ref 3
            nn.Dropout(self.cfg.dropout_prob, deterministic=not training),
        ])

        # resi link
        output = output + mlp(nn.LayerNorm()(output))

        return output


class Embedding(nn.Module):
    '''position and token embedding'''
    cfg: Config

    @nn.compact
    def __call__(self, idx, training=True):
        """idx: (b, t), the data is seq of number in this toy problem"""
        b, t = idx.shape

        position_embedding = nn.Embed(
            self.cfg.context_window, 
            self.cfg.n_embd,
            embedding_init=nn.initializers.normal(stddev=0.02)
            )

        # (t,n_embd) > (1,t,n_embd)
        wpe = position_embedding(jnp.arange(t))[None,]

        token_embedding = nn.Embed(
            self.cfg.vocab_size, 
            self.cfg.n_embd,
            embedding_init=nn.initializers.normal(stddev=0.02)
            )
        wte = token_embedding(idx)  # (b, t, n_embd)

        output = nn.Dropout(self.cfg.dropout_prob)(
            wpe + wte, 
            deterministic=not training
        )

        return output


class GPT(nn.Module):
    cfg: Config

    @nn.compact
    def __call__(self, x, training=True):
        x = Embedding(self.cfg)(x, training)

        for _ in range(self.cfg.n_layer):
            x = Block(self.cfg)(x, training)

        x = nn.LayerNorm()(x)

        # output head
        logits = nn.Dense(self.cfg.vocab_size)(x)

        return logits


# reference
# param speical init
# 1. Dense default init https://flax.readthedocs.io/en/latest/_modules/flax/linen/linear.html
# 2. layernorm init default to ones and zeros https://flax.readthedocs.io/en/latest/_modules/flax/linen/normalization.html#LayerNorm
# 3. Reinitialize selected weights subject to the OpenAI GPT-2 Paper Scheme:
#     #   > A modified initialization which accounts for the accumulation on the residual path with model depth. Scale
#     #   > the weights of residual layers at initialization by a factor of 1/√N where N is the # of residual layers.
#     #   >   -- GPT-2 :: https://openai.com/blog/better-language-models/
#     #
#     # Reference (Megatron-LM): https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/model/gpt_model.py
# --- jax_impl/infer.py (commit d06243a) ---
from functools import partial
import jax.numpy as jnp
import jax

# from jax_impl.model import GPT  # scaffolding: inlined above
# from jax_impl.config import Config  # scaffolding: inlined above


def generate(cfg: Config, params, x, num_token):
    """greedy argmax
    x: (b, t)
    num_token: how many new token to generate
    """
    b, t = x.shape
    assert t < cfg.context_window, "Input seq is longer than context window. Not going to work."
    
    # # let's try padding
    # delta = cfg.context_window - t
    # fud = jnp.ones((b, delta), dtype=jnp.int32) * (cfg.vocab_size - 1)
    # context = jnp.concatenate([x, fud], axis=1)

    # print(context)
    context = x
    
    # infer_fn = jax.jit(partial(GPT(cfg).apply, params, training=False))
    infer_fn = partial(GPT(cfg).apply, params, training=False)

    for _ in range(num_token):
        # sliding window when the sequence is longer than context_window
        # context's max shape is (b, context_window)
        context = context[:, -cfg.context_window :]
        logits = infer_fn(context)

        # take the last token's logits, make the prediction, and adjust shape for next cat op
        pred = jnp.argmax(logits[:, -1, :], axis=-1)[..., None]  # (b, 1)

        context = jnp.concatenate([context, pred], axis=1)  # (b, t+1)

    return context


# --- jax_demo.ipynb ---
# cell 1
from types import SimpleNamespace  # scaffolding
from jax import random  # scaffolding: cell 0's import
cfg = Config()
cfg = cfg.replace(context_window=64, n_embd=48, n_head=3, n_layer=3, vocab_size=8, sequence_len=6)  # scaffolding: the gpt-nano sizes of the earlier commit, so the eager run stays short on CPU
print(cfg)

key = random.PRNGKey(42)

rng, key = random.split(key)
state = SimpleNamespace(params=GPT(cfg).init({"params": rng, "dropout": rng}, jnp.zeros((cfg.batch_size, cfg.sequence_len * 2 - 1), jnp.int32)))  # scaffolding: stand-in for create_train_state/train_epoch/restore_checkpoint (untrained params)

# cell 5
# from jax_impl.infer import generate  # scaffolding: inlined above

rng, key = random.split(key)
x = random.randint(rng, (1, cfg.sequence_len), 0, maxval=cfg.vocab_size)

output = generate(cfg, state.params, x, cfg.sequence_len)[:, -cfg.sequence_len:]

print(f"input = {x}")
print(f"generated sequence = {output}")

# cell 6
# assert (jnp.sort(x) == output).all()  # scaffolding: params are untrained here, so the sort check is left out
_report({"jit(apply)"}, 6)  # scaffolding: infer_fn (no longer jitted) is called cfg.sequence_len = 6 times
