# source: https://github.com/google-research/scenic/commit/c43eeaf430fe11cf10bf344ea56a3889cc72fc7a
# expect: none
# runtime: COMPILES 0 CALLS 3
# why: The commit drops the jax.jit decorators from the Model methods, so the text embedder runs op by op and no jitted function is compiled.

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


import dataclasses
import functools
import types  # scaffolding
from typing import Any, Dict, Tuple

from flax import linen as nn
import jax
import jax.numpy as jnp
import numpy as np

QUERY_PAD_BIN_SIZE = 50


class _TinyOwlVit(nn.Module):  # scaffolding: stands for the OWL-ViT text tower
  @nn.compact
  def __call__(self, text_queries):
    return self.text_embedder(text_queries)

  @nn.compact
  def text_embedder(self, text_queries, train=False):
    return nn.Dense(8, name='proj')(jax.nn.one_hot(text_queries, 16).sum(-2))

  def tokenize(self, q):
    return [ord(c) % 16 for c in q[:4].ljust(4)]


# scenic/projects/owl_vit/notebooks/inference.py after the commit
@dataclasses.dataclass
class Model:
  """Wraps an OWL-ViT FLAX model for convenient inference."""

  config: Any
  module: nn.Module
  variables: Dict[str, Any]

  def __post_init__(self):
    self.module = self.module.bind(self.variables)

  def __eq__(self, other):
    if isinstance(other, Model):
      return (self.config.init_from.checkpoint_path ==
              other.config.init_from.checkpoint_path)

  def __hash__(self):
    return hash(self.config.init_from.checkpoint_path)

  @functools.lru_cache(maxsize=1000)  # scaffolding: numpy_cache.lru_cache
  def embed_text_queries(self, queries: Tuple[str, ...]) -> np.ndarray:
    """Embeds text queries."""
    tokenized = np.array([self.module.tokenize(q) for q in queries])
    # Pad queries to avoid re-compilation:
    n = len(queries)
    num_pad = int(np.ceil(n / QUERY_PAD_BIN_SIZE) * QUERY_PAD_BIN_SIZE) - n
    tokenized = np.pad(tokenized, [[0, num_pad], [0, 0]])  # scaffolding: tf.pad(...).numpy()
    return np.array(self._embed_texts_jitted(tokenized[None, ...])[0])

  def _embed_texts_jitted(self, queries: jnp.ndarray) -> jnp.ndarray:
    return self.module.text_embedder(text_queries=queries, train=False)


config = types.SimpleNamespace(init_from=types.SimpleNamespace(checkpoint_path='owl_vit_b32'))  # scaffolding
module = _TinyOwlVit()  # scaffolding
variables = module.init(jax.random.PRNGKey(0), jnp.zeros((1, 50, 4), jnp.int32))  # scaffolding
model = Model(config, module, variables)  # scaffolding
for queries in [('cat',), ('cat', 'dog'), ('cat', 'dog', 'bird')]:  # scaffolding: three queries in the notebook
  model.embed_text_queries(queries)  # scaffolding
_report({"jit(_embed_texts_jitted)"}, 3)  # scaffolding
