# source: https://github.com/google-research/sofima/commit/6ed61c391e410b05a29cb6d063e8039db1378d3b
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit's fix: a short last batch of patch positions is edge-padded to batch_size before computing the starts, so batched_xcorr_peaks always sees the same shapes and compiles once (results are read back only for the real positions).

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
import functools  # scaffolding
from typing import Sequence

import jax
import jax.numpy as jnp
import numpy as np


class utils:  # scaffolding: stand-in for connectomics.common.utils
  @staticmethod
  def batch(iterable, batch_size):
    items = list(iterable)
    for i in range(0, len(items), batch_size):
      yield items[i:i + batch_size]


@functools.partial(
    jax.jit,
    static_argnames=[
        'patch_size',
        'mean',
        'min_distance',
        'threshold_rel',
        'peak_radius',
        'post_patch_size',
    ],
)
def batched_xcorr_peaks(
    pre_image: jnp.ndarray,
    post_image: jnp.ndarray,
    pre_mask: jnp.ndarray | None,
    post_mask: jnp.ndarray | None,
    patch_size: Sequence[int],
    starts: jnp.ndarray,
    mean: float | None,
    min_distance: int | Sequence[int] = 2,
    threshold_rel: float = 0.5,
    peak_radius: int | Sequence[int] = 5,
    post_patch_size: Sequence[int] | None = None,
    post_starts: jax.Array | None = None,
) -> jnp.ndarray:
  # scaffolding: stand-in body for _batched_xcorr/_batched_peaks
  post_patch_size = post_patch_size or patch_size
  pre = jax.vmap(lambda s: jax.lax.dynamic_slice(pre_image, s, patch_size))(starts)
  post = jax.vmap(lambda s: jax.lax.dynamic_slice(post_image, s, post_patch_size))(post_starts)
  xc = jnp.fft.irfft2(jnp.fft.rfft2(pre) * jnp.conj(jnp.fft.rfft2(post)), s=patch_size)
  flat = xc.reshape(xc.shape[0], -1)
  idx = jnp.argmax(flat, axis=-1)
  y, x = jnp.unravel_index(idx, patch_size)
  peak = jnp.max(flat, axis=-1)
  return jnp.stack([x, y, peak, peak], axis=-1)


# scaffolding: two images, 16x16 patches every 8 pixels, all positions selected
rng = np.random.RandomState(0)
pre_image = jnp.asarray(rng.rand(64, 64), jnp.float32)
post_image = jnp.asarray(np.roll(np.asarray(pre_image), (2, 3), axis=(0, 1)))
pre_mask = post_mask = None
patch_size = post_patch_size = (16, 16)
step = (8, 8)
batch_size = 16
out_shape = (np.array(post_image.shape) - (np.array(post_patch_size) - step)) // step
selection_mask = np.ones(out_shape, dtype=bool)
progress_fn = lambda x: x
mean = None
patch_offset = (np.array(patch_size) - post_patch_size) // 2
patch_offset = patch_offset[None, ...].astype(int)

oyx = np.array(np.where(selection_mask)).T
calls = 0
for pos_zyx in progress_fn(list(utils.batch(oyx, batch_size))):
  pos_zyx = np.array(pos_zyx)
  real_batch_size = pos_zyx.shape[0]

  if real_batch_size < batch_size:
    pad_len = batch_size - real_batch_size
    pos_zyx_proc = np.pad(pos_zyx, ((0, pad_len), (0, 0)), mode='edge')
  else:
    pos_zyx_proc = pos_zyx

  post_starts = pos_zyx_proc * np.array(step).reshape((1, -1))

  pre_starts = post_starts - patch_offset
  pre_starts = np.clip(pre_starts, 0, np.inf).astype(int)

  pre_starts = np.clip(pre_starts, 0, np.inf).astype(int)

  peaks = np.array(
      batched_xcorr_peaks(
          pre_image,
          post_image,
          pre_mask,
          post_mask,
          patch_size,
          jnp.array(pre_starts),
          mean,
          post_patch_size=post_patch_size,
          min_distance=2,
          peak_radius=5,
          post_starts=jnp.array(post_starts),
      )
  )
  calls += 1
  for i, coord in enumerate(pos_zyx):
    v = peaks[i]
_report({"jit(batched_xcorr_peaks)"}, calls)
