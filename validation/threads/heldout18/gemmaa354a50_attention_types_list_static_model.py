# source: https://github.com/google-deepmind/gemma/commit/a354a50e3d5f418aacdedbcd3a1cd8f9e5b26ee6
# expect: unhashable-static at line 75
# runtime: ERROR ValueError
# why: The config's attention_types is a list, so hashing the Transformer module that train_step takes as a static argument fails and the jitted train step raises on its first call.

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


import dataclasses  # scaffolding
import enum  # scaffolding
from typing import Iterable  # scaffolding

import chex
import flax.linen as nn  # scaffolding
import jax
import jax.numpy as jnp
import optax


# scaffolding: gemma.modules.AttentionType as in the repo
class AttentionType(enum.Enum):
  GLOBAL = 1
  LOCAL_SLIDING = 2


# gemma/transformer.py before the commit (trimmed to the fields and one constructor)
@dataclasses.dataclass(frozen=True)
class TransformerConfig:
  """Configuration for the gemma transformer."""

  num_layers: int
  num_embed: int
  embed_dim: int
  hidden_dim: int
  num_heads: int
  head_dim: int
  num_kv_heads: int
  logit_softcapping: int | None
  use_post_attn_norm: bool
  attention_types: Iterable[AttentionType]
  max_cache_length: int = 1024
  sliding_window_size: int | None = None

  @classmethod
  def gemma_2b(cls, cache_size: int):
    num_layers = 2  # scaffolding: 18 in the repo
    return cls(
        num_layers=num_layers,
        num_embed=64,  # scaffolding: 256128 in the repo
        embed_dim=16,  # scaffolding: 2048
        hidden_dim=32,  # scaffolding: 16384
        num_heads=8,
        head_dim=256,
        num_kv_heads=1,
        logit_softcapping=None,
        attention_types=[AttentionType.GLOBAL] * num_layers,
        use_post_attn_norm=None,
        max_cache_length=cache_size,
    )


# scaffolding: a tiny stand-in for gemma's Transformer (a flax linen module holding the config)
class Transformer(nn.Module):
  config: TransformerConfig

  @nn.compact
  def __call__(self, last_tokens, positions, cache, attention_mask):
    x = nn.Embed(self.config.num_embed, self.config.embed_dim)(last_tokens)
    x = x + jnp.einsum("bqk,bkd->bqd", attention_mask.astype(x.dtype), x)
    return nn.Dense(self.config.num_embed)(x), cache


def make_causal_attn_mask(
    input_mask: jax.Array,
) -> jax.Array:
  seq_len = input_mask.shape[-1]
  attn_mask = input_mask[..., None, :]
  causal_mask = jnp.tril(jnp.ones((seq_len, seq_len), dtype=jnp.bool_))
  # Prefixes can be attended by all tokens
  attn_mask *= causal_mask[None, ...]
  return attn_mask


def build_positions_from_mask(input_mask: jax.Array) -> jax.Array:
  positions = jnp.cumsum(input_mask, axis=-1)
  # Subtract one for all positions from the first valid one as they are
  # 0-indexed
  return positions - (positions >= 1)


# colabs/fine_tuning_tutorial.ipynb
@chex.dataclass(frozen=True)
class TrainingInput:
  # Input tokens given to the model
  input_tokens: jax.Array

  # A mask that determines which tokens contribute to the target loss
  # calculation.
  target_mask: jax.Array


def forward_and_loss_fn(params,
                        *,
                        model: Transformer,
                        input_tokens: jax.Array,            # Shape [B, L]
                        input_mask: jax.Array,              # Shape [B, L]
                        positions: jax.Array,               # Shape [B, L]
                        attention_mask: jax.Array,          # [B, L, L]
                        ) -> jax.Array:
  # Forward pass on the input data.
  # No attention cache is needed here.
  logits, _ = model.apply(
        params,
        input_tokens,
        positions,
        None,              # Attention cache is None.
        attention_mask,
    )

  # Exclude the last step as it does not appear in the targets.
  logits = logits[0, :-1]

  # Similarly, the first token cannot be predicteds.
  target_tokens = input_tokens[0, 1:]
  target_mask = input_mask[0, 1:]

  # Convert the target labels into one-hot encoded vectors.
  one_hot = jax.nn.one_hot(target_tokens, logits.shape[-1])

  # Don't update on unwanted tokens.
  one_hot = one_hot * target_mask.astype(one_hot.dtype)[...,None]

  # Normalisation factor.
  norm_factor = 1 / (jnp.sum(target_mask) + 1e-8)

  # Return the nll loss.
  return -jnp.sum(jax.nn.log_softmax(logits) * one_hot) * norm_factor


def get_attention_mask_and_positions(example: jax.Array,
                                     pad_id : int,
                                     )-> tuple[jax.Array, jax.Array]:
  """Builds the position and attention mask vectors from the given tokens."""
  pad_mask = example != pad_id
  current_token_position = build_positions_from_mask(pad_mask)
  attention_mask = make_causal_attn_mask(pad_mask)
  return current_token_position, attention_mask


def train_step(model: Transformer,
               params,
               optimizer: optax.GradientTransformation,
               opt_state: optax.OptState,
               pad_id: int,
               example: TrainingInput):
  # Build the position and attention mask vectors.
  positions, attention_mask = get_attention_mask_and_positions(example.input_tokens, pad_id)

  # Forward and backward passes
  train_loss, grads = jax.value_and_grad(forward_and_loss_fn)(params,
                                                             model=model,
                                                             input_tokens=example.input_tokens,
                                                             input_mask=example.target_mask,
                                                             positions=positions,
                                                             attention_mask=attention_mask)
  # Update the parameters
  updates, opt_state = optimizer.update(grads, opt_state)
  params = optax.apply_updates(params, updates)

  return train_loss, params, opt_state


# the training loop of the colab, cut down: no validation, a few synthetic examples  # scaffolding
def train_loop(model, params, train_ds, learning_rate):
  # We jit the train step, making the whole loop much more efficient
  compiled_train_step = jax.jit(train_step, static_argnames=['model', 'optimizer'])

  optimizer = optax.sgd(learning_rate)
  opt_state = optimizer.init(params)
  n_steps = 0
  for train_example in train_ds:
    train_loss, params, opt_state = compiled_train_step(model=model,
                                                        params=params,
                                                        optimizer=optimizer,
                                                        opt_state=opt_state,
                                                        pad_id=0,
                                                        example=train_example)
    n_steps += 1
  return params, n_steps


config_2b = TransformerConfig.gemma_2b(cache_size=30)
model_2b = Transformer(config=config_2b)
SEQ_SIZE = 25
toks = jax.random.randint(jax.random.PRNGKey(0), (4, 1, SEQ_SIZE), 1, 64)  # scaffolding
train_ds = [TrainingInput(input_tokens=t, target_mask=jnp.ones_like(t)) for t in toks]  # scaffolding
params = model_2b.init(jax.random.PRNGKey(1), toks[0], jnp.zeros_like(toks[0]), None,
                       jnp.ones((1, SEQ_SIZE, SEQ_SIZE), bool))  # scaffolding
try:  # scaffolding
  params, calls = train_loop(model_2b, params, train_ds, 1e-4)
  _report({"jit(train_step)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
