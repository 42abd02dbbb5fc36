# source: https://github.com/google-research/long-range-arena/issues/7
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the maintainers' fix (commit 98771f6, after this issue) drops static_argnums and jits an inner _create_model(key) that closes over flax_module, input_shape and the model_kwargs dict, so nothing unhashable is hashed; the model is created once and compiles once.

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
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
from jax import random


class TransformerEncoder(nn.Module):  # scaffolding: stand-in for transformer.TransformerEncoder
  vocab_size: int
  emb_dim: int
  num_classes: int

  @nn.compact
  def __call__(self, x):
    x = nn.Embed(self.vocab_size, self.emb_dim)(x.astype(jnp.int32))
    return nn.Dense(self.num_classes)(x.mean(axis=1))


class transformer:  # scaffolding
  TransformerEncoder = TransformerEncoder


def create_model(key, flax_module, input_shape, model_kwargs):
  """Creates and initializes the model."""

  @functools.partial(jax.jit, backend='cpu')
  def _create_model(key):
    module = flax_module(**model_kwargs)  # modernised from flax_module.partial(**model_kwargs)
    initial_params = module.init(key, jnp.ones(input_shape, jnp.float32))  # modernised
    return initial_params

  return _create_model(key)


model_kwargs = {}  # scaffolding
input_shape = (2, 8)  # scaffolding: (batch_size, max_length)
model_kwargs.update({
    'vocab_size': 16,
    'emb_dim': 4,
    'num_classes': 10
})

rng = random.PRNGKey(0)
rng, init_rng = random.split(rng)
model = create_model(init_rng, transformer.TransformerEncoder, input_shape,
                     model_kwargs)
_report({"jit(_create_model)"}, 1)  # scaffolding
