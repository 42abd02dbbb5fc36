# source: https://github.com/cabouman/mbirjax/commit/0d762c6dc4c9e8b735e879b274224ad7635ed089
# expect: jit-in-loop-or-body at line 59
# runtime: COMPILES 6 CALLS 3
# why: The module-level FBP kernel is not jitted, so every fbp_filter call runs lax.map eagerly over freshly defined closures and the mapped scan is traced and compiled again.
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



from functools import partial

import numpy as np
import jax
import jax.numpy as jnp


def generate_direct_recon_filter(num_channels, filter_name="ramp"):  # scaffolding: tomography_utils ramp filter
    n = np.arange(-num_channels + 1, num_channels)  # scaffolding
    h = np.zeros(n.shape, dtype=np.float32)  # scaffolding
    h[n == 0] = 0.25  # scaffolding
    odd = n % 2 == 1  # scaffolding
    h[odd] = -1.0 / (np.pi * n[odd]) ** 2  # scaffolding
    return h  # scaffolding


def _apply_fbp_filter_to_views(views, filter_arr, *, body_views, tail_views, view_batch_size):
    """Apply the FBP filter to a (views, rows, channels) block on the current device.

    Defined at module level (not as a closure inside fbp_filter) so JAX's JIT
    cache is shared across all threads and all fbp_filter calls.
    """
    def _convolve_row(row):
        return jax.scipy.signal.fftconvolve(row, filter_arr, mode='valid')

    def _apply_conv_to_view(view):
        # view: (rows, channels) — contiguous; vmap the convolution over rows.
        return jax.vmap(_convolve_row)(view)

    parts = []
    if body_views > 0:
        parts.append(jax.lax.map(_apply_conv_to_view, views[:body_views],
                                 batch_size=view_batch_size))
    if tail_views > 0:
        # tail < view_batch_size — process without a fixed batch size to avoid
        # cuFFT-contaminating padding.
        parts.append(jax.lax.map(_apply_conv_to_view, views[body_views:]))
    return jnp.concatenate(parts, axis=0) if len(parts) > 1 else parts[0]


class ParallelBeamModel:  # scaffolding: cut to fbp_filter's single-device path
    view_batch_size_for_vmap = 4  # scaffolding
    mesh = None  # scaffolding: no sharding mesh configured

    def __init__(self, delta_voxel=1.0):  # scaffolding
        self.delta_voxel = delta_voxel  # scaffolding

    def fbp_filter(self, sinogram, filter_name="ramp", view_batch_size=None):
        num_views, _, num_channels = sinogram.shape
        if view_batch_size is None:
            view_batch_size = self.view_batch_size_for_vmap
            max_view_batch_size = 128  # Limit the view batch size here and ConeBeam due to https://github.com/jax-ml/jax/issues/27591
            view_batch_size = min(view_batch_size, max_view_batch_size)
        delta_voxel = self.delta_voxel
        scaling_factor = 1 / (delta_voxel ** 2)
        recon_filter = generate_direct_recon_filter(num_channels, filter_name=filter_name)
        recon_filter *= scaling_factor
        filter_np = np.asarray(recon_filter)

        def split(local_views):
            body = (local_views // view_batch_size) * view_batch_size
            return body, local_views - body

        # Single-device path (no mesh configured): filter directly.
        body_views, tail_views = split(num_views)
        filter_jax = jnp.array(filter_np)
        filtered_sinogram = _apply_fbp_filter_to_views(
            sinogram, filter_jax,
            body_views=body_views, tail_views=tail_views,
            view_batch_size=view_batch_size)

        # Scaling term (applies to both sharded and plain arrays).
        filtered_sinogram = filtered_sinogram * (jnp.pi / num_views)
        return filtered_sinogram


model = ParallelBeamModel()  # scaffolding
calls = 0  # scaffolding
for i in range(3):  # scaffolding: fbp_recon on three sinograms of the same size
    sino = jax.random.normal(jax.random.PRNGKey(i), (10, 3, 16))  # scaffolding: 10 views, 3 rows, 16 channels
    model.fbp_filter(sino).block_until_ready()  # scaffolding
    calls += 1  # scaffolding
_report({"jit(scan)", "jit(map)", "jit(_apply_fbp_filter_per_view)"}, calls)  # scaffolding
