# source: https://github.com/lukaemon/minGPT-reimplemented/blob/ec5ba059e66c95730421ab98e0764aa88ad54b02/jax_impl/train.py
# expect: shape-churn at line 431
# runtime: COMPILES 4 CALLS 12
# why: after the author's jit fix (static cfg), the DataLoader keeps the ragged last batch, so train_step compiles for batch 64 and again for the short last batch; eval's jitted apply does the same on the eval loader.
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




# --- jax_impl/config.py (commit ec5ba05) ---
from flax import struct

@struct.dataclass
class Config:
    # model config
    context_window: int  = 64
    n_embd: int = 48
    n_head: int = 3
    n_layer: int = 3
    dropout_prob: float = 0.1


    # data config
    vocab_size: int = 8 # used to init dataset
    sequence_len: int = 6 # used to init dataset
    
    # train config
    batch_size: int  = 64
    learning_rate: float = 5e-4
    n_epoch = 32
    
    # optimizer
    b1 = 0.9
    b2 = 0.95
    weight_decay = 0.1
    grad_norm_clip = 1.0


# Because I use static_argname in jax.jit
# May not need to use special struc.dataclass here for the jit to work
# Could just use native python dataclass or ml_collections.ConfigDict
# Previous config overhaul is wasted haha. 
# 
# Also, I don't even need to use static_argname
# Just parital(train_step, cfg=cfg, ...) to wrap it up would work as well.
# This is how Flax wmt example did it. https://github.com/google/flax/blob/a3b4cad524cd7da4f044e10700f5af51b4d29c30/examples/wmt/train.py#L528


# --- jax_impl/model.py (commit ec5ba05) ---
import math
# from ml_collections import ConfigDict  # scaffolding: ml_collections is not installed
ConfigDict = object  # scaffolding: only used as a field annotation

import jax.numpy as jnp
from jax.tree_util import tree_map

import flax.linen as nn

import numpy as np


class Attention(nn.Module):
    '''multihead causal self-attention'''
    cfg: ConfigDict

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
    cfg: ConfigDict

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
    cfg: ConfigDict

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
    cfg: ConfigDict

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
# --- dataset.py / torch stand-ins ---
class SortDataset:  # scaffolding: numpy stand-in for dataset.SortDataset (torch is not installed); same x/y layout, 200 examples instead of 10000
    def __init__(self, split, length=6, num_digits=3, transform=None):  # scaffolding
        self.split, self.length, self.num_digits, self.transform = split, length, num_digits, transform  # scaffolding
        self._rng = np.random.default_rng(0 if split == "train" else 1)  # scaffolding

    def __len__(self):  # scaffolding
        return 200  # scaffolding: 200 = 3*64 + 8, so the last batch is ragged like 10000 = 156*64 + 16

    def __getitem__(self, idx):  # scaffolding
        inp = self._rng.integers(self.num_digits, size=(self.length,))  # scaffolding
        cat = np.concatenate([inp, np.sort(inp)])  # scaffolding
        x, y = cat[:-1].copy(), cat[1:].copy()  # scaffolding
        y[: self.length - 1] = -1  # scaffolding
        if self.transform:  # scaffolding
            x, y = self.transform(x), self.transform(y)  # scaffolding
        return x, y  # scaffolding


class DataLoader:  # scaffolding: stand-in for torch.utils.data.DataLoader (drop_last=False, its default)
    def __init__(self, dataset, batch_size=1, shuffle=False, collate_fn=None):  # scaffolding
        self.dataset, self.batch_size, self.shuffle, self.collate_fn = dataset, batch_size, shuffle, collate_fn  # scaffolding

    def __iter__(self):  # scaffolding
        idx = np.random.permutation(len(self.dataset)) if self.shuffle else np.arange(len(self.dataset))  # scaffolding
        for i in range(0, len(idx), self.batch_size):  # scaffolding
            yield self.collate_fn([self.dataset[j] for j in idx[i:i + self.batch_size]])  # scaffolding

# --- jax_impl/train.py (commit ec5ba05) ---
from functools import partial
import jax
from jax import tree_util

import jax.numpy as jnp
import flax.linen as nn

import numpy as np

import optax
from flax.training import train_state

# from jax_impl.model import GPT  # scaffolding: inlined above
# from jax_impl.config import Config  # scaffolding: inlined above

# from dataset import SortDataset  # scaffolding: stand-in above
# from torch.utils.data import DataLoader  # scaffolding: stand-in above

# raw input, get the sense of -1 paddings
# and the reason for crazy pre normalizing to ignore loss of padding positions
# [0 2 5 3 3 1 0 1 2 3 3]
# [-1 -1 -1 -1 -1  0  1  2  3  3  5]
def loss_fn(logits, labels, ignore_index=-1):  # ref 2, omg, price for jit
    logits = jnp.where(
        (labels == ignore_index)[..., None], -nn.log_softmax(logits), logits
    )
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels)  # ref 1

    # batch average loss, torch cross entropy loss default redution is mean as well
    return loss.mean()


# filter = labels != ignore_index  # filter out -1 padding pairs
# labels = labels[filter]
# logits = logits[filter]
# NonConcreteBooleanIndexError: Array boolean indices must be concrete; got ShapedArray(bool[32,11])
# See https://jax.readthedocs.io/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError

# When I do this jax.lax.stop_gradient(-nn.log_softmax(logits))
# result: epoch 11 - iter:100 | loss:1.877 | acc:0.990
# this is not the right number because cross entropy here is -log(pred_prob)
# check the graph to get a sense: https://www.wolframalpha.com/input?i=-log%28x%29+from+0+to+1
# meaning, at acc 0.99, my loss should be almost 0, not 1.877.
# if I take off the stop_gradient
# result: epoch 11 - iter:100 | loss:0.010 | acc:0.992
# this is within expectation.
# TODO: but why? I did this -logsoftmax as a hack to counter index -1. What's the proper way to handle this?
# maybe pytorch implementation could give me a hint: https://pytorch.org/docs/stable/_modules/torch/nn/modules/loss.html#CrossEntropyLoss


def create_weight_decay_mask(params):  # FIXME: You can do better, this is crazy
    """
    Don't apply weight decay to bias, layernorm and embeddings
    Apply weight decay to the rest of params

    Achieve this in few steps:
    - flatten the param tree, get the structure of the tree
    - traversing param tree to get full name list for each leaf param
    - apply truth value funciton to names to decide whether its lr should be decayed
    - build a tree with param tree structure and the truth value list, this is the mask

    Later, pass the mask to optax optimizer
    https://optax.readthedocs.io/en/latest/api.html#adamw
    """

    def traversal(tree):
        result = []

        def walk(node, buffer):
            if isinstance(node, jax.Array):  # scaffolding: jnp.DeviceArray was removed; jax.Array is its successor
                result.append(".".join(buffer))
            else:
                for key in node.keys():
                    walk(node[key], buffer + [key.lower()])

        walk(tree, [])
        return result

    def is_weight_decay(name):
        no_decay = ["bias", "layernorm", "embedding"]

        out = True
        for nono in no_decay:
            out &= nono not in name

        return out

    ps, structure = tree_util.tree_flatten(
        params, is_leaf=lambda node: isinstance(node, jax.Array)  # scaffolding: jnp.DeviceArray was removed; jax.Array is its successor
    )

    params_name = traversal(params)
    assert len(ps) == len(params_name), "traversal error, len didn't match"

    flat_mask = list(map(is_weight_decay, params_name))
    mask = tree_util.tree_unflatten(structure, flat_mask)

    return mask


def create_train_state(rng, cfg: Config):
    rng_param, rng_dropout, rng = jax.random.split(rng, 3)
    init_rngs = {"params": rng_param, "dropout": rng_dropout}

    model = GPT(cfg)

    # FIXME: dataset specific hack ... you can do better
    block_size = cfg.sequence_len * 2 - 1
    input_shape = (cfg.batch_size, block_size)
    params = model.init(init_rngs, jnp.zeros(input_shape, jnp.int32))

    weight_decay_mask = create_weight_decay_mask(params)
    optimizer = optax.chain(
        optax.clip(cfg.grad_norm_clip),
        optax.adamw(
            cfg.learning_rate,
            cfg.b1,
            cfg.b2,
            weight_decay=cfg.weight_decay,
            mask=weight_decay_mask,
        ),
    )

    return train_state.TrainState.create(
        apply_fn=model.apply, params=params, tx=optimizer
    )


def compute_loss(params, batch, cfg, dropout_rng):
    x, y = batch
    logits = GPT(cfg).apply(params, x, rngs={"dropout": dropout_rng})
    loss = loss_fn(logits, y, ignore_index=-1)

    return loss, logits


def compute_accuracy(logits, labels):
    pred = jnp.argmax(logits, axis=-1)

    # still need to take care of -1 cas
    acc = (pred == labels).mean(where=labels != -1)

    return acc


@partial(jax.jit, static_argnames="cfg", donate_argnums=(0,)) # 260ms -> 1ms
def train_step(state: train_state.TrainState, batch, cfg: Config, dropout_rng):
    _, labels = batch

    grad_fn = jax.value_and_grad(compute_loss, has_aux=True)
    (loss, logits), grads = grad_fn(state.params, batch, cfg, dropout_rng)

    state = state.apply_gradients(grads=grads)
    metrics = {"loss": loss, "acc": compute_accuracy(logits, labels)}

    return state, metrics


def prepare_data(cfg: Config):
    def numpy_collate(batch):
        if isinstance(batch[0], np.ndarray):
            return np.stack(batch)
        elif isinstance(batch[0], (tuple, list)):
            transposed = zip(*batch)
            return [numpy_collate(samples) for samples in transposed]
        else:
            return np.array(batch)

    def cast(x):
        return np.array(x, dtype=int)

    train_dataset = SortDataset(
        "train", length=cfg.sequence_len, num_digits=cfg.vocab_size, transform=cast
    )
    train_loader = DataLoader(
        train_dataset, batch_size=cfg.batch_size, shuffle=True, collate_fn=numpy_collate
    )

    eval_dataset = SortDataset(
        "test", length=cfg.sequence_len, num_digits=cfg.vocab_size, transform=cast
    )
    eval_loader = DataLoader(
        eval_dataset, batch_size=cfg.batch_size, collate_fn=numpy_collate
    )

    return train_loader, eval_loader


def train_epoch(state, train_loader, cfg, dropout_rng, epoch):
    loss, acc = [], []

    for batch in train_loader:
        state, metrics = train_step(state, batch, cfg, dropout_rng)

        loss.append(metrics["loss"])
        acc.append(metrics["acc"])

    avg_loss = jnp.array(loss).mean().item()
    avg_acc = jnp.array(acc).mean().item()

    print(f"epoch {epoch:2d} | {avg_loss=:.4f} | {avg_acc=:.4f}")

    return state


def eval(state, eval_loader, cfg):
    batch_acc = []
    
    # with out static_argnames, error: https://jax.readthedocs.io/en/latest/errors.html#jax.errors.ConcretizationTypeError
    infer_fn = jax.jit(GPT(cfg).apply, static_argnames='training')  # 17s to 1.62s
    
    for x, y in eval_loader:
        logits = infer_fn(state.params, x, training=False)
        acc = compute_accuracy(logits, y)
        batch_acc.append(acc)
    
    overall_acc = jnp.array(batch_acc).mean()
    print(f"eval accuracy = {overall_acc:.3f}")


# reference
# 1. cross entropy loss https://github.com/deepmind/optax/blob/90b17710a061a5f4c7b060f4c7715f2d539cb39f/optax/_src/loss.py#L175#L207
# 2. cross entropy loss and normalizing note
# cross entropy:
# H(P, Q) = - expectation_p(x)(log(q(x)))
#         = - sum(p(x)log(q(x))) # In multi-classification case, p(x) = 1 for correct case, the rest is 0
#         = - log(q(x)) # predicted prob at correct class logit
# q = logits
# q(x) = softmax(logits) = exp(x) / sum(exp(logits))
# let i = correct index
# -log(q(i)) = -log(exp(i) / sum(exp(logits)))
#            = sum(exp(logits)) - i # this is how optax implement cross_entropy loss
# https://github.com/deepmind/optax/blob/master/optax/_src/loss.py#L175#L207
#
# normalization of logits for correct loss computation:
# logits = jnp.where((labels == ignore_index)[..., None], -nn.log_softmax(logits), logits)
#
# data looks like this
# x =      [0   2  5  3  3  1  0  1  2  3  3] # shape= (11, )
# labels = [-1 -1 -1 -1 -1  0  1  2  3  3  5] # shape= (11, )
#
# For all lables = -1, you don't want to compute loss since they are just padding position.
# To compute loss of multi-class cross entropy, you got logits of shape (11, num_class)
# since loss = -log(q(i)) = sum(exp(logits)) - i
# in padding possitions, i=-1, this is invalid position, the loss contribution should be 0
# hence sum(exp(logits)) should equal to i, put it in equaiton
# sum(exp(logits)) = i = -1
# that's why we need to pre-normalize logits with -logsoftmax at location where label = -1
# sum(exp(-logsoftmax(logits))) = -sum(softmax(logits)) = -1
#
# However, you can't use numpy truth value index in jax.jit, hence the usage of jnp.where
# (labels == ignore_index)[..., None] do this for proper shape of broadcasting by add a dim at the end.


# --- jax_demo.ipynb ---
# cell 0
from jax import random  # scaffolding: the rest of cell 0's imports are above

# cell 1
cfg = Config()
key = random.PRNGKey(42)

train_loader, eval_loader = prepare_data(cfg)

rng, key = random.split(key)
state = create_train_state(rng, cfg)

# cell 2
for e in range(2):  # scaffolding: 2 of cfg.n_epoch = 32 epochs
    rng, key = random.split(key)
    state = train_epoch(state, train_loader, cfg, rng, e)

# cell 3
eval(state, eval_loader, cfg)
_report({"jit(train_step)", "jit(apply)"}, 12)  # scaffolding: 2 epochs x 4 train_step calls + 4 infer_fn calls in eval
