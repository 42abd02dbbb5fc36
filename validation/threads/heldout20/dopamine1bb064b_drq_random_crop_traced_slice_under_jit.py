# source: https://github.com/google/dopamine/commit/1bb064bcf82dd63ea84febf5dfe122a424406e85
# expect: trace-time-error at line 44
# runtime: ERROR IndexError
# why: The commit jits drq_image_augmentation; with the pre-commit _random_crop the crop offsets are tracers and the Python slice img[:, x:x + width] cannot be traced, which is why the commit rewrote the crop with lax.dynamic_slice.

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


import functools  # scaffolding

import jax
import jax.numpy as jnp


# dopamine/labs/atari_100k/atari_100k_rainbow_agent.py before the commit, with the commit's @jax.jit
# on drq_image_augmentation (the commit keeps the old call as a commented-out line)
############################ Data Augmentation ############################
def _random_crop(key, img, cropped_shape):
  """Random crop an image."""
  _, width, height = cropped_shape[:-1]
  key_x, key_y = jax.random.split(key, 2)
  x = jax.random.randint(key_x, shape=(), minval=0, maxval=img.shape[1] - width)
  y = jax.random.randint(
      key_y, shape=(), minval=0, maxval=img.shape[2] - height)
  return img[:, x:x + width, y:y + height]


def _intensity_aug(key, x, scale=0.05):
  """Follows the code in Schwarzer et al. (2020) for intensity augmentation."""
  r = jax.random.normal(key, shape=(x.shape[0], 1, 1, 1))
  noise = 1.0 + (scale * jnp.clip(r, -2.0, 2.0))
  return x * noise


@jax.jit
def drq_image_augmentation(key, obs, img_pad=4):
  """Padding and cropping for DrQ (Kostrikov et. al, 2020)."""
  paddings = [(0, 0), (img_pad, img_pad), (img_pad, img_pad), (0, 0)]
  cropped_shape = obs.shape
  # The reference uses ReplicationPad2d in pytorch, but it is not available
  # in Jax. Use 'edge' instead.
  obs = jnp.pad(obs, paddings, 'edge')
  key1, key2 = jax.random.split(key, num=2)
  aug_obs = _intensity_aug(key1, _random_crop(key2, obs, cropped_shape))
  return aug_obs


def preprocess_inputs_with_augmentation(x, data_augmentation=False, rng=None):
  """Input normalization and if specified, data augmentation."""
  out = x.astype(jnp.float32) / 255.
  if data_augmentation:
    if rng is None:
      raise ValueError('Pass rng when using data augmentation')
    out = drq_image_augmentation(rng, out)
  return out


train_preprocess_fn = functools.partial(  # scaffolding: the agent's __init__
    preprocess_inputs_with_augmentation, data_augmentation=True)
rng = jax.random.PRNGKey(0)  # scaffolding
try:  # scaffolding
    for _ in range(3):  # scaffolding: three training steps
        rng, rng1 = jax.random.split(rng)  # scaffolding
        states = train_preprocess_fn(jnp.zeros((8, 84, 84, 4), jnp.uint8), rng=rng1)  # scaffolding
    _report({"jit(drq_image_augmentation)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
