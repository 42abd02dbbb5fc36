# source: https://github.com/mlcommons/algorithmic-efficiency/pull/886
# expect: trace-time-error at line 196
# runtime: ERROR TracerBoolConversionError
# why: dropout_rate is a traced argument of the jitted forward pass, and flax MultiHeadDotProductAttention tests dropout_rate > 0 in Python, so passing it to the attention layer raises TracerBoolConversionError (the forked Dropout layers handle a traced rate).
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
# mlcommons/algorithmic-efficiency PR #886, before d1770c22: algoperf/jax_utils.py Dropout and wmt_jax/models.py MlpBlock/Encoder1DBlock
from collections.abc import Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
from flax.linen.module import Module, compact, merge_param
from flax.typing import PRNGKey
from jax import lax, random


class Dropout(Module):
  """Forked flax Dropout (docstring cut)."""
  rate: float | None = None
  broadcast_dims: Sequence[int] = ()
  deterministic: bool | None = None
  rng_collection: str = 'dropout'
  legacy: bool = False

  @compact
  def __call__(
    self,
    inputs,
    deterministic: bool | None = None,
    rate: float | None = None,
    rng: PRNGKey | None = None,
  ):
    deterministic = merge_param(
      'deterministic', self.deterministic, deterministic
    )

    # Override self.rate if rate is passed to __call__
    if rate is None:
      rate = self.rate

    if self.legacy:
      if rate == 0.0:
        return inputs

      # Prevent gradient NaNs in 1.0 edge-case.
      if rate == 1.0:
        return jnp.zeros_like(inputs)

    if deterministic:
      return inputs

    keep_prob = 1.0 - rate
    if rng is None:
      rng = self.make_rng(self.rng_collection)
    broadcast_shape = list(inputs.shape)
    for dim in self.broadcast_dims:
      broadcast_shape[dim] = 1
    mask = random.bernoulli(rng, p=keep_prob, shape=broadcast_shape)
    mask = jnp.broadcast_to(mask, inputs.shape)
    return lax.select(mask, inputs / keep_prob, jnp.zeros_like(inputs))


# algoperf/workloads/wmt/wmt_jax/models.py
from typing import Any, Callable, Optional
from flax import struct

DROPOUT_RATE = 0.1


@struct.dataclass
class TransformerConfig:
  """Global hyperparameters used to minimize obnoxious kwarg plumbing."""

  share_embeddings: bool = True
  dtype: Any = jnp.float32
  vocab_size: int = 32000
  emb_dim: int = 1024
  num_heads: int = 16
  num_layers: int = 6
  qkv_dim: int = 1024
  mlp_dim: int = 1024
  max_len: int = 256
  activation: Callable = nn.relu
  glu: bool = False
  attention_temp: float = 1.0
  deterministic: bool = False
  decode: bool = False
  kernel_init: Callable = nn.initializers.xavier_uniform()
  bias_init: Callable = nn.initializers.normal(stddev=1e-6)
  posemb_init: Optional[Callable] = None
  pre_ln: bool = True



class MlpBlock(nn.Module):
  """Transformer MLP / feed-forward block.

  Attributes:
    config: TransformerConfig dataclass containing hyperparameters.
    out_dim: optionally specify out dimension.
  """

  config: TransformerConfig
  out_dim: Optional[int] = None

  @nn.compact
  def __call__(self, inputs, dropout_rate=DROPOUT_RATE):
    """Applies Transformer MlpBlock module."""
    cfg = self.config

    actual_out_dim = inputs.shape[-1] if self.out_dim is None else self.out_dim
    x = nn.Dense(
      cfg.mlp_dim,
      dtype=cfg.dtype,
      kernel_init=cfg.kernel_init,
      bias_init=cfg.bias_init,
    )(inputs)
    x = cfg.activation(x)
    if cfg.glu:
      y = nn.Dense(
        cfg.mlp_dim,
        dtype=cfg.dtype,
        kernel_init=cfg.kernel_init,
        bias_init=cfg.bias_init,
      )(inputs)
      x = x * y
    x = Dropout(rate=dropout_rate)(
      x, rate=dropout_rate, deterministic=cfg.deterministic
    )
    output = nn.Dense(
      actual_out_dim,
      dtype=cfg.dtype,
      kernel_init=cfg.kernel_init,
      bias_init=cfg.bias_init,
    )(x)
    output = Dropout(rate=dropout_rate)(
      output, rate=dropout_rate, deterministic=cfg.deterministic
    )
    return output


class Encoder1DBlock(nn.Module):
  """Transformer encoder layer.

  Attributes:
    config: TransformerConfig dataclass containing hyperparameters.
  """

  config: TransformerConfig

  @nn.compact
  def __call__(self, inputs, encoder_mask=None, dropout_rate=DROPOUT_RATE):
    """Applies Encoder1DBlock module.

    Args:
      inputs: input data.
      encoder_mask: encoder self-attention mask.

    Returns:
      output after transformer encoder block.
    """
    cfg = self.config

    pre_ln = cfg.pre_ln

    # Attention block.
    assert inputs.ndim == 3
    x = nn.LayerNorm(dtype=cfg.dtype)(inputs) if pre_ln else inputs
    x = nn.MultiHeadDotProductAttention(
      num_heads=cfg.num_heads,
      dtype=cfg.dtype,
      qkv_features=cfg.qkv_dim,
      kernel_init=cfg.kernel_init,
      bias_init=cfg.bias_init,
      use_bias=False,
      broadcast_dropout=False,
      dropout_rate=dropout_rate,
      deterministic=cfg.deterministic,
    )(cfg.attention_temp * x, x, mask=encoder_mask)

    x = Dropout(rate=dropout_rate)(
      x, deterministic=cfg.deterministic, rate=dropout_rate
    )
    x = x + inputs
    if not pre_ln:
      x = nn.LayerNorm(dtype=cfg.dtype)(x)

    # MLP block.
    y = nn.LayerNorm(dtype=cfg.dtype)(x) if pre_ln else x
    y = MlpBlock(config=cfg)(y, dropout_rate=dropout_rate)

    return x + y if pre_ln else nn.LayerNorm(dtype=cfg.dtype)(x + y)


# scaffolding: a small config and the workload's jitted train forward pass, with dropout_rate as an argument (AlgoPerf's new dropout API pipes it into the model call)
cfg = TransformerConfig(emb_dim=16, num_heads=2, qkv_dim=16, mlp_dim=32)  # scaffolding
block = Encoder1DBlock(config=cfg)  # scaffolding
x = jnp.ones((2, 5, 16))  # scaffolding
variables = block.init({"params": random.PRNGKey(0), "dropout": random.PRNGKey(1)}, x)  # scaffolding


@jax.jit  # scaffolding
def train_forward(variables, x, dropout_rate, key):  # scaffolding
    return block.apply(variables, x, dropout_rate=dropout_rate, rngs={"dropout": key})  # scaffolding


calls = 0  # scaffolding
try:  # scaffolding
    for step, rate in enumerate([0.1, 0.1, 0.2]):  # scaffolding: a sequential dropout schedule
        y = train_forward(variables, x, rate, random.PRNGKey(step))  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(train_forward)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
