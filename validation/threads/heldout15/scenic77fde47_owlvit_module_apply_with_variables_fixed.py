# source: https://github.com/google-research/scenic/commit/77fde47ce6296bc3f8d2bf9f937f597001727514
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: The commit's fix: the module is no longer bound; each jitted method calls self.module.apply(self.variables, ..., method=...), and each compiles once for its 2 calls.

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
import dataclasses
import functools
from typing import Any, Dict, Tuple

from flax import linen as nn
import jax
import jax.numpy as jnp
import types  # scaffolding
import numpy as np
from scipy import special as sp_special

sigmoid = sp_special.expit  # Sigmoid is a more familiar name.


class TinyOwlViT(nn.Module):  # scaffolding: a tiny stand-in for the OWL-ViT flax module
  def setup(self):
    self.backbone = nn.Conv(8, (4, 4), strides=(4, 4))
    self.box_head = nn.Dense(4)
    self.class_head = nn.Dense(6)

  def image_embedder(self, images, train=False):
    return self.backbone(images)

  def box_predictor(self, image_features, feature_map):
    return {'pred_boxes': jax.nn.sigmoid(self.box_head(image_features))}

  def class_predictor(self, image_features, query_embeddings=None):
    class_embeddings = self.class_head(image_features)
    if query_embeddings is None:
      return {'class_embeddings': class_embeddings}
    return {'pred_logits': jnp.einsum('bpd,bqd->bpq', class_embeddings, query_embeddings)}

  def __call__(self, images):
    feature_map = self.image_embedder(images)
    b, _, _, c = feature_map.shape
    features = jnp.reshape(feature_map, (b, -1, c))
    return self.box_predictor(features, feature_map), self.class_predictor(features)


# scenic/projects/owl_vit/notebooks/inference.py (after the commit; docstrings cut)
@dataclasses.dataclass
class Model:
  """Wraps an OWL-ViT FLAX model for convenient inference."""
  config: Any  # scaffolding: ml_collections.ConfigDict
  module: nn.Module
  variables: Dict[str, Any]

  def __eq__(self, other):
    if isinstance(other, Model):
      return (self.config.init_from.checkpoint_path ==
              other.config.init_from.checkpoint_path)

  def __hash__(self):
    return hash(self.config.init_from.checkpoint_path)

  def preprocess_image(self, image: np.ndarray) -> np.ndarray:  # scaffolding: numpy_cache and skimage resize dropped
    return image.astype(np.float32) / 255.0

  def embed_image(
      self, image: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    image = self.preprocess_image(image)
    out = self._embed_image_jitted(image[None, ...])
    return jax.tree_util.tree_map(lambda x: np.array(x[0]), out)

  def get_scores(
      self,
      image: np.ndarray,
      query_embeddings: np.ndarray,
      num_queries: int,
  ) -> Tuple[np.ndarray, np.ndarray]:
    image_features, _, _ = self.embed_image(image)
    out = self._predict_classes_jitted(
        image_features=image_features[None, ...],
        query_embeddings=query_embeddings[None, ...])
    logits = np.array(out['pred_logits'])[0, :, :num_queries]  # Remove padding.
    top_query_ind = np.argmax(logits, axis=-1)
    scores = sigmoid(np.max(logits, axis=-1))
    return top_query_ind, scores

  @functools.partial(jax.jit, static_argnums=(0,))
  def _embed_image_jitted(
      self, image: jnp.ndarray) -> Tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
    """Embeds image and returns image features, class embeddings, and boxes."""
    feature_map = self.module.apply(
        self.variables,
        images=image,
        train=False,
        method=self.module.image_embedder)
    b, _, _, c = feature_map.shape
    features = jnp.reshape(feature_map, (b, -1, c))
    pred_boxes = self.module.apply(
        self.variables, features, feature_map,
        method=self.module.box_predictor)['pred_boxes']
    class_embeddings = self.module.apply(
        self.variables,
        image_features=features,
        query_embeddings=None,
        method=self.module.class_predictor)['class_embeddings']
    return features, class_embeddings, pred_boxes

  @functools.partial(jax.jit, static_argnums=(0,))
  def _predict_classes_jitted(
      self,
      image_features: jnp.ndarray,
      query_embeddings: jnp.ndarray,
  ) -> Dict[str, jnp.ndarray]:
    return self.module.apply(
        self.variables,
        image_features=image_features,
        query_embeddings=query_embeddings,
        method=self.module.class_predictor)


# scaffolding: build the wrapper and score two images against three query embeddings
config = types.SimpleNamespace(init_from=types.SimpleNamespace(checkpoint_path='tiny'))
module = TinyOwlViT()
variables = module.init(jax.random.PRNGKey(0), jnp.zeros((1, 16, 16, 3)))
model = Model(config=config, module=module, variables=variables)
query_embeddings = np.random.RandomState(0).randn(3, 6).astype(np.float32)
calls = 0
for seed in range(2):
  image = np.random.RandomState(seed).randint(0, 255, (16, 16, 3)).astype(np.uint8)
  top_query_ind, scores = model.get_scores(image, query_embeddings, 3)
  calls += 2
_report({"jit(_embed_image_jitted)", "jit(_predict_classes_jitted)"}, calls)
