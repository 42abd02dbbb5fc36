# source: https://github.com/google-deepmind/tapnet/commit/c1b005953f9d5d1e0a6398059ee311144c9c8c99
# expect: trace-time-error at line 53
# runtime: ERROR TypeError
# why: FeatureGrids is a NamedTuple, so its resolutions (tuples of Python ints) are pytree leaves; passed into the jitted estimate_trajectories they become tracers, and using them as a resize shape raises while tracing.

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
from typing import NamedTuple, Sequence, Tuple

import chex
import jax
import jax.numpy as jnp


# tapir_model.py (before the commit; FeatureGrids as written, the model reduced to the two
# places that build and read `resolutions`)
class FeatureGrids(NamedTuple):
  """Feature grids for a video, used to compute trajectories.

  These are per-frame outputs of the encoding resnet.

  Attributes:
    lowres: Low-resolution features, one for each resolution; 256 channels.
    hires: High-resolution features, one for each resolution; 64 channels.
    resolutions: Resolutions used for trajectory computation.  There will be one
      entry for the initialization, and then an entry for each PIPs refinement
      resolution.
  """

  lowres: Sequence[chex.Array]
  hires: Sequence[chex.Array]
  resolutions: Sequence[Tuple[int, int]]


def get_feature_grids(video, resolutions=((16, 16), (32, 32))):  # scaffolding: TAPIR.get_feature_grids cut down
  feature_grid, hires_feats, resize_im_shape = [], [], []
  for res in resolutions:
    video_resize = jax.image.resize(video, video.shape[:2] + res + video.shape[4:], 'bilinear')
    latent = video_resize.mean(axis=-1, keepdims=True)
    hires = video_resize
    feature_grid.append(latent)
    hires_feats.append(hires)
    resize_im_shape.append(video_resize.shape[2:4])

  return FeatureGrids(
      tuple(feature_grid), tuple(hires_feats), tuple(resize_im_shape)
  )


def estimate_trajectories(query_points, feature_grids: FeatureGrids, feature_level=1):  # scaffolding: TAPIR.estimate_trajectories cut down
  resize_hw = feature_grids.resolutions[feature_level]
  feats = jax.image.resize(feature_grids.lowres[0], feature_grids.lowres[0].shape[:2] + tuple(resize_hw) + (1,), 'bilinear')
  return jnp.einsum('bthwc,bqc->bqt', feats, query_points)


# scaffolding: compute feature grids once, then jit the trajectory estimate with them as input
video = jnp.ones((1, 4, 64, 64, 3))
feature_grids = get_feature_grids(video)
query_points = jnp.ones((1, 5, 1))
jit_estimate = jax.jit(estimate_trajectories)
calls = 0
try:  # scaffolding
  for _ in range(2):
    tracks = jit_estimate(query_points, feature_grids)
    calls += 1
  _report({"jit(estimate_trajectories)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
