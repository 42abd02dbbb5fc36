# source: https://github.com/jenkspt/gpt-jax/commit/2dfb36c542f021f70cfbdfc88ef58c762f037906
# expect: jit-in-loop-or-body at line 285
# runtime: COMPILES 3 CALLS 3
# why: evaluate() runs jax.lax.map eagerly over a new lambda around the pmapped eval_step, so the scan is traced and compiled again at every evaluation (3 compiles for 3 evaluations).
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



# ---- model.py ----
from typing import Any, Optional, Tuple
from dataclasses import dataclass
from functools import partial
import jax
import jax.numpy as jnp
import flax.linen as nn
from flax.core import FrozenDict, freeze, unfreeze
from flax.traverse_util import flatten_dict, unflatten_dict


@dataclass(frozen=True)
class GPTConfig:
    block_size: int = 1024
    vocab_size: int = 50257
    num_layers: int = 12
    num_heads: int = 12
    num_embeds: int = 768
    dropout_rate: float = 0.1
    dtype: Optional[str] = None


class SelfAttention(nn.Module):

    num_heads: int
    dtype: Any = jnp.float32
    dropout_rate: float = 0.1
    deterministic: Optional[bool] = None

    #@partial(nn.remat, policy=jax.checkpoint_policies.checkpoint_dots_with_no_batch_dims)
    @nn.compact
    def __call__(self, x, mask, deterministic=None):
        B, T, C = x.shape
        assert C % self.num_heads == 0
        head_dim = C // self.num_heads
        deterministic = nn.merge_param('deterministic', self.deterministic, deterministic)

        qkv = nn.Dense(3 * C, dtype=self.dtype, name='c_attn')(x)
        qkv = qkv.reshape(B, T, 3 * self.num_heads, head_dim)
        q, k, v = jnp.array_split(qkv, 3, axis=2)
        # calculate attention matrix
        scale = 1.0 / jnp.sqrt(head_dim).astype(self.dtype)
        # attn weight shape is (batch..., num_heads, q_length, kv_length)
        attn = jnp.einsum('...qhd,...khd->...hqk', q, k) * scale
        attn = jnp.where(mask, attn, jnp.finfo(self.dtype).min)
        attn = jax.nn.softmax(attn).astype(self.dtype)

        x = nn.Dropout(self.dropout_rate)(attn, deterministic=deterministic)

        # return weighted sum over values for each query position
        x = jnp.einsum('...hqk,...khd->...qhd', attn, v).reshape(B, T, C)
        x = nn.Dense(C, dtype=self.dtype, name='c_proj')(x)

        x = nn.Dropout(rate=self.dropout_rate)(x, deterministic=deterministic)
        return x


class MLP(nn.Module):
    config: GPTConfig

    @nn.compact
    def __call__(self, x, deterministic=None):
        B, T, C = x.shape
        x = nn.Dense(4 * C, dtype=self.config.dtype, name='c_fc')(x)
        x = nn.gelu(x, approximate=True)
        x = nn.Dense(C, dtype=self.config.dtype, name='c_proj')(x)
        x = nn.Dropout(self.config.dropout_rate)(x, deterministic)
        return x


class Block(nn.Module):
    config: GPTConfig

    def setup(self):
        self.ln_1 = nn.LayerNorm(dtype=self.config.dtype)
        self.attn = SelfAttention(self.config.num_heads,
                                  self.config.dtype,
                                  dropout_rate=self.config.dropout_rate)
        self.ln_2 = nn.LayerNorm(dtype=self.config.dtype)
        self.mlp = MLP(self.config)

    def __call__(self, x, mask=None, deterministic=None):
        x = x + self.attn(self.ln_1(x), mask, deterministic)
        x = x + self.mlp(self.ln_2(x), deterministic)
        return x


class GPT(nn.Module):
    config: GPTConfig

    @nn.compact
    def __call__(self, idx, deterministic=None):
        B, T = idx.shape
        assert T <= self.config.block_size, f"Cannot forward sequence of length {T}, block size is only {self.block_size}"

        pos = jnp.arange(0, T)[None]
        attn_mask = nn.make_causal_mask(idx, dtype=bool)

        wte = nn.Embed(self.config.vocab_size, self.config.num_embeds, dtype=self.config.dtype, name='wte')
        wpe = nn.Embed(self.config.block_size, self.config.num_embeds, dtype=self.config.dtype, name='wpe')

        token_embed = wte(idx)      # [B, T, num_embeds]
        pos_embed = wpe(pos)        # [1, T, num_embeds]
        x = nn.Dropout(self.config.dropout_rate)(token_embed + pos_embed, deterministic)

        for i in range(self.config.num_layers):
            x = Block(self.config, name=str(i))(x, attn_mask, deterministic=deterministic)

        x = nn.LayerNorm(dtype=self.config.dtype, name='ln_f')(x)
        logits = wte.attend(x)
        return logits

    def init(self, rng):
        """
        by jitting init, traced values instead of concrete values are used
        which saves memory (since un-jitted model may not fit in memory)
        """
        tokens = jnp.zeros((2, self.config.block_size), dtype=jnp.uint16)
        params = jax.jit(super().init, static_argnums=(2,))(rng, tokens, True)
        return params


def convert_hf_params(hf_params: FrozenDict, num_heads, num_embeds) -> FrozenDict:
    params = unfreeze(hf_params['transformer'])
    for k, v in params.pop('h', {}).items():
        params[k] = v

    params = flatten_dict(params, sep='.')
    for k in params.keys():
        #if k.endswith('attn.c_attn.bias'):
        #    params[k] = params[k].reshape(num_heads, -1)
        if k.endswith('attn.c_attn.kernel'):
            #params[k] = params[k].reshape(num_embeds, num_heads, -1) 
            params[k] = params[k].T
        elif k.endswith('attn.c_proj.kernel'):
            #params[k] = params[k].reshape(num_heads, -1, num_embeds)
            params[k] = params[k].T
        elif k.split('.')[1] == 'mlp' and k.endswith('kernel'):
            params[k] = params[k].T

    params = unflatten_dict({f'params.{k}': v for k, v in params.items()}, sep='.')
    return freeze(params)


def get_pretrained_params(model_type: str) -> Tuple[GPTConfig, FrozenDict]:
    """
    returns config and pretrained parameters from huggingface gpt models 
    """
    assert model_type in ('gpt2', 'gpt2-medium', 'gpt2-large', 'gpt2-xl')
    # only dropout can be overridden see more notes below
    from transformers import FlaxGPT2LMHeadModel
    print("loading weights from pretrained gpt: %s" % model_type)

    config = {
        'gpt2':         GPTConfig(num_layers=12, num_heads=12, num_embeds=768),  # 124M params
        'gpt2-medium':  GPTConfig(num_layers=24, num_heads=16, num_embeds=1024), # 350M params
        'gpt2-large':   GPTConfig(num_layers=36, num_heads=20, num_embeds=1280), # 774M params
        'gpt2-xl':      GPTConfig(num_layers=48, num_heads=25, num_embeds=1600), # 1558M params
    }[model_type]

    model_hf = FlaxGPT2LMHeadModel.from_pretrained(model_type)
    hf_params = model_hf.params['transformer']
    params = convert_hf_params(hf_params, config.num_heads, config.num_embeds)
    return config, params
# ---- train.py ----
from typing import Tuple, Optional, Union
from dataclasses import dataclass, field, asdict
from functools import partial
# import wandb  # scaffolding: wandb is not installed; config.wandb is None in this run
import numpy as np
# import tyro  # scaffolding: tyro is not installed; stand-in below

import jax
import jax.numpy as jnp
import flax
from flax.core import FrozenDict, frozen_dict
from flax.training import checkpoints
from flax.training.train_state import TrainState
from flax.jax_utils import replicate, unreplicate
import optax
# from tensorflow.io import gfile  # scaffolding: tensorflow is not installed; stand-in below

# from model import GPT, GPTConfig  # scaffolding: model.py is inlined above


@dataclass(frozen=True)
class WandbConfig:
    entity: str = 'jenkspt'
    project: str = 'owt'
    name: str = 'test'


@dataclass(frozen=True)
class CosineDecayScheduleConfig:
    init_value: float = 0.0
    peak_value: float = 2.5e-4
    warmup_steps: int = 2000
    decay_steps: int = 320000
    end_value: float = 1e-5


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 555
    out_dir: str = 'out'
    data_dir: str = '.'
    eval_interval: int = 500
    #log_interval: int = 1
    eval_steps: int = 50
    eval_only: bool = False # if True, script exits right after the first eval
    # data
    batch_size: int = 2
    use_pjit: bool = False
    # adamw optimizer
    train_steps: int = 500000 # total number of training iterations
    weight_decay: float = 1e-2
    betas: Tuple[float, float] = (0.9, 0.95)
    learning_rate: Union[float, CosineDecayScheduleConfig] = field(default_factory=CosineDecayScheduleConfig)
    # wandb logging
    wandb: Optional[WandbConfig] = field(default_factory=WandbConfig)
    # model
    model: GPTConfig = field(default_factory=GPTConfig)


@partial(jax.pmap, axis_name='batch')
def train_step(state: TrainState, tokens: jnp.ndarray, dropout_key) -> Tuple[jnp.ndarray, TrainState]:

    dropout_key = jax.random.fold_in(dropout_key, state.step)

    def loss_fn(params: FrozenDict) -> jnp.ndarray:
        X, Y = tokens[:, :-1], tokens[:, 1:]
        logits = state.apply_fn(params, X, False, rngs={'dropout': dropout_key})
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, Y).mean()
        return loss
    
    # per-device loss and grads
    loss, grads = jax.value_and_grad(loss_fn, has_aux=False)(state.params)
    #loss, grads = jax.value_and_grad(loss_fn, has_aux=False, reduce_axes=('batch',))(state.params)
    # average gradients across devices
    grads = jax.lax.pmean(grads, axis_name="batch")
    loss = jax.lax.pmean(loss, axis_name="batch")
    new_state = state.apply_gradients(grads=grads)
    return loss, new_state


@partial(jax.pmap, axis_name='batch')
def eval_step(state: TrainState, tokens: jnp.ndarray) -> jnp.ndarray:
    X, Y = tokens[:, :-1], tokens[:, 1:]
    logits = state.apply_fn(state.params, X, True)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, Y)
    loss = jax.lax.pmean(loss, axis_name="batch")
    return loss


def evaluate(state: TrainState, data: np.memmap, batch_size: int, block_size: int, steps: int) -> jnp.ndarray:
    n = jax.local_device_count() * config.batch_size * (block_size + 1)
    data = data[:(len(data) // n) * n].reshape(-1, jax.local_device_count(), batch_size, block_size + 1)
    losses = jax.lax.map(lambda x: eval_step(state, x), data[:steps])
    return jnp.mean(losses)


def count_params(params: FrozenDict) -> int:
    p = jax.tree_util.tree_map(lambda a: a.size if isinstance(a, jnp.ndarray) else 0, params)
    return jax.tree_util.tree_reduce(lambda a, b: a + b, p)


def param_decay_mask(params: FrozenDict) -> FrozenDict:
    """ pytree mask for non-bias parameters """
    flat_params = flax.traverse_util.flatten_dict(params)
    flat_param_mask = {k: k[-1] not in ('bias', 'embedding', 'scale') for k in flat_params.keys()}
    param_mask = flax.traverse_util.unflatten_dict(flat_param_mask)
    return frozen_dict.freeze(param_mask)


def init_train_state(key, config: GPTConfig, optimizer, weight_decay=1e-2) -> TrainState:

    model = GPT(config)

    params = model.init(key)

    optimizer = optax.chain(
        # Apply weight decay only to non-bias parameters
        optax.add_decayed_weights(weight_decay, mask=param_decay_mask(params)),
        optimizer,
    )

    train_state = TrainState.create(
        apply_fn=model.apply,
        params=params,
        tx=optimizer)

    return train_state


def get_train_batch(data: np.memmap, batch_size: int, block_size: int, key):
    with jax.experimental.enable_x64():
        ix = jax.random.randint(key, [jax.local_device_count() * batch_size], 0, len(data) - block_size)
        ix = np.asarray(ix)
        tokens = np.stack([data[i:i+block_size+1] for i in ix])
    return tokens.reshape(-1, batch_size, block_size+1)




# ---- scaffolding: stand-ins for tyro, tensorflow's gfile and the OpenWebText shards; a tiny GPT and a short run ----
import os, tempfile  # scaffolding
from types import SimpleNamespace  # scaffolding
jax.experimental.enable_x64 = jax.enable_x64  # scaffolding: jax.experimental.enable_x64 moved to jax.enable_x64
flax.config.update('flax_return_frozendict', True)  # scaffolding: 2023 flax returned FrozenDict params from init, which param_decay_mask's frozen mask relies on
gfile = SimpleNamespace(join=os.path.join, copy=None)  # scaffolding: local paths only
_tmp = tempfile.mkdtemp()  # scaffolding
for _split, _n in (("train", 4096), ("val", 2048)):  # scaffolding: small random token shards instead of OpenWebText's prepare.py output
    np.random.RandomState(0).randint(0, 64, _n).astype(np.uint16).tofile(os.path.join(_tmp, f"{_split}_0.bin"))  # scaffolding
tyro = SimpleNamespace(cli=lambda cls: cls(out_dir=os.path.join(_tmp, "out"), data_dir=_tmp, eval_interval=2, eval_steps=2, train_steps=6, learning_rate=1e-3, wandb=None, model=GPTConfig(block_size=16, vocab_size=64, num_layers=1, num_heads=2, num_embeds=16)))  # scaffolding: as if run with these flags

# ---- train.py (continued: the __main__ training script) ----
if __name__ == "__main__":
    config = tyro.cli(TrainConfig)

    if config.wandb is not None:
        wandb.init(**asdict(config.wandb))
        wandb.config = asdict(config)

    block_size = config.model.block_size

    # ===== datasets =====
    train_path = gfile.join(config.data_dir, f'train_{jax.process_index()}.bin')
    val_path = gfile.join(config.data_dir, f'val_{jax.process_index()}.bin')

    # maybe download shard
    if config.data_dir.startswith('gs://'):
        gfile.copy(train_path, train_path.split('/')[-1])
        gfile.copy(val_path, val_path.split('/')[-1])
        train_path = train_path.split('/')[-1]
        val_path = val_path.split('/')[-1]

    train_data = np.memmap(train_path, dtype=np.uint16, mode='r')
    val_data = np.memmap(val_path, dtype=np.uint16, mode='r')

    # ===== learning rate schedule =====
    if isinstance(config.learning_rate, CosineDecayScheduleConfig):
        learning_rate = optax.warmup_cosine_decay_schedule(**asdict(config.learning_rate))
    else:
        learning_rate = config.learning_rate

    # =====  init parameters ============
    key = jax.random.PRNGKey(config.seed)
    key, key_params, key_dropout = jax.random.split(key, 3)
    keys_dropout = jax.random.split(key_dropout, jax.device_count())
    # make sure dropout keys are different for each device (local and global)
    keys_dropout = jnp.array_split(keys_dropout, jax.process_count())[jax.process_index()]

    optimizer = optax.adam(learning_rate, *config.betas)

    train_state = init_train_state(key_params, config.model, optimizer, config.weight_decay)

    num_params = count_params(train_state.params)
    if jax.process_index() == 0:
        #logging.info(f'PARAMETER COUNT: {num_params:,}')
        print(f'PARAMETER COUNT: {num_params:,}')

    best_val_loss = float('inf')

    # ==== restore dataset and train state ==== #
    # restore unreplicated optimizer + model state from last checkpoint.
    # this is a no-op if no checkpoints exist
    train_state, key = checkpoints.restore_checkpoint(
        f'{config.out_dir}/checkpoints/train_state', (train_state, key))

    # grab step from last checkpoint
    step = int(train_state.step)

    # replicate parameters to each device
    train_state = replicate(train_state)

    for step in range(step, config.train_steps):

        if step % config.eval_interval == 0:
            val_loss = evaluate(train_state, val_data, config.batch_size,
                                block_size, config.eval_steps)
            
            if (val_loss < best_val_loss) and not config.eval_only:
                best_val_loss = val_loss
                # save train state in process 0
                checkpoints.save_checkpoint_multiprocess(
                    f'{config.out_dir}/checkpoints/train_state',
                    (unreplicate(train_state), key), step, keep=3)
                
            if (config.wandb is not None) and (jax.process_index() == 0):
                wandb.log({"val/loss": val_loss}, step=step)

        if config.eval_only:
            break

        key, key_batch = jax.random.split(key)
        tokens = get_train_batch(train_data, config.batch_size, block_size, key_batch)
        loss, train_state = train_step(train_state, tokens, keys_dropout)

        if (config.wandb is not None) and (jax.process_index() == 0):
            wandb.log({
                "train/loss": loss,
                "lr": learning_rate(step) if callable(learning_rate) else learning_rate
            }, step=step)
    n_evals = len(range(0, config.train_steps, config.eval_interval))  # scaffolding
    _report({"jit(scan)"}, n_evals)  # scaffolding: compiles of the eager lax.map in evaluate, per evaluate() call
