# source: https://github.com/jax-ml/bonsai/commit/87b0ee73c1f6334c3c71919851d8b348ff311cb8
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the commit left-pads the cache to cache_t frames, so the scan carry keeps one shape and decode runs.

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


from typing import Tuple

import jax
import jax.numpy as jnp
from flax import nnx
from jax import Array

# bonsai/models/wan2/vae.py (after the commit; CausalConv3d, WanVAEDecoder.decode)
class CausalConv3d(nnx.Module):
    """Causal 3D convolution that doesn't look into the future."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Tuple[int, int, int] = (3, 3, 3),
        *,
        rngs: nnx.Rngs,
        padding: Tuple[int, int, int] = (0, 0, 0),
    ):
        self.kernel_size = kernel_size
        self.temporal_padding = padding[0]  # Save for cache size calculation
        self.conv = nnx.Conv(
            in_features=in_channels,
            out_features=out_channels,
            kernel_size=kernel_size,
            padding="VALID",  # We'll handle padding manually
            rngs=rngs,
            # precision=Precision.HIGHEST,
        )
        self.padding = (
            (0, 0),
            (2 * padding[0], 0),
            (padding[1], padding[1]),
            (padding[2], padding[2]),
            (0, 0),
        )

    def __call__(self, x: Array, cache: Array | None = None) -> tuple[Array, Array | None]:
        """Forward pass with optional caching.

        Args:
            x: [B, T, H, W, C] input (JAX channel-last format)
            cache: [B, CACHE_T, H, W, C] cached frames from previous call, or None

        Returns:
            out: [B, T_out, H_out, W_out, C_out] output
            new_cache: [B, CACHE_T, H, W, C] cache for next call, or None
        """
        # Cache size is 2*padding because we pad left by (2*padding, 0) for causality
        cache_t = 2 * self.temporal_padding
        if cache is not None and cache_t > 0:
            x = jnp.concatenate([cache, x], axis=1)  # [B, T+CACHE_T, H, W, C]
            # jax.debug.print("feat cache in causalconv3d:{},{}", cache.shape, x.shape)
            padding = list(self.padding)
            padding[1] = (max(0, self.padding[1][0] - cache.shape[1]), 0)  # Reduce left padding
            padding = tuple(padding)
        else:
            padding = self.padding

        x_padded = jnp.pad(x, padding, mode="constant")
        out = self.conv(x_padded)

        # Extract cache for next iteration: last cache_t frames of INPUT (before conv)
        # Always create cache if we have temporal padding (even on first frame)
        if cache_t > 0:
            new_cache = x[:, -cache_t:, :, :, :]  # [B, <=CACHE_T, H, W, C]
            # Pad on the left if we do not yet have cache_t frames (e.g., first call with T=1).
            if new_cache.shape[1] < cache_t:
                pad_t = cache_t - new_cache.shape[1]
                new_cache = jnp.pad(new_cache, ((0, 0), (pad_t, 0), (0, 0), (0, 0), (0, 0)), mode="constant")
        else:
            new_cache = None

        return out, new_cache


class Decoder3D(nnx.Module):  # scaffolding: stand-in for the Wan 3D decoder, one cached causal conv used as the repo's layers use it
    def __init__(self, *, rngs: nnx.Rngs):
        self.conv_out = CausalConv3d(16, 3, kernel_size=(3, 3, 3), padding=(1, 1, 1), rngs=rngs)

    def __call__(self, x, cache_list, cache_idx):
        idx = cache_idx[0]
        x, new_cache = self.conv_out(x, cache_list[idx])
        cache_list = (*cache_list[:idx], new_cache, *cache_list[idx + 1 :])
        cache_idx[0] += 1
        return x, cache_list


class WanVAEDecoder(nnx.Module):  # bonsai/models/wan2/vae.py (__init__ cut to what decode uses)
    def __init__(self, *, rngs: nnx.Rngs):
        self.latent_mean_tuple = (0.0,) * 16  # scaffolding: VAEConfig values
        self.latent_std_tuple = (1.0,) * 16  # scaffolding

        # 1x1 conv projection
        self.conv2 = CausalConv3d(16, 16, kernel_size=(1, 1, 1), rngs=rngs)

        # 3D decoder
        self.decoder = Decoder3D(rngs=rngs)

    def decode(self, latents: Array) -> Array:
        """
        Decode latents to RGB video with feature caching.

        Args:
            latents: [B, T, H, W, C] latent representation (JAX format)
                    e.g., [1, 21, 104, 60, 16]

        Returns:
            video: [B, T_out, H_out, W_out, 3] RGB video (values in [-1, 1])
                  e.g., [1, 81, 832, 480, 3]
        """
        # Step 1: Denormalize
        # Convert Python tuples to JAX arrays at runtime (JIT treats them as static constants)
        latent_mean = jnp.array(self.latent_mean_tuple).reshape(1, 1, 1, 1, 16)
        latent_std = jnp.array(self.latent_std_tuple).reshape(1, 1, 1, 1, 16)
        z = latents * latent_std + latent_mean

        z, _ = self.conv2(z, None)

        # Scan over time dimension: z is [B, T, H, W, C], transpose to [T, B, H, W, C]
        z_frames = jnp.moveaxis(z, 1, 0)  # [T, B, H, W, C]
        # Add singleton time dimension for each frame: [T, B, 1, H, W, C]
        z_frames = z_frames[:, :, None, :, :, :]

        # Warm-up pass: process first frame to initialize cache with correct shapes
        # This ensures consistent pytree structure for jax.lax.scan
        cache_idx = [0]
        cache_tuple = (None,) * 50
        first_frame_out, cache_tuple = self.decoder(z_frames[0], cache_tuple, cache_idx)

        # JIT-compiled scan function for remaining frames (now cache has concrete shapes)
        @jax.jit
        def scan_frames(cache_tuple, frame_latent):
            """Process single frame with caching (JIT-compiled)."""
            cache_idx = [0]
            frame_out, new_cache_tuple = self.decoder(frame_latent, cache_tuple, cache_idx)
            return new_cache_tuple, frame_out

        # Process remaining frames with JIT
        if z_frames.shape[0] > 1:
            _final_cache, remaining_outputs = jax.lax.scan(scan_frames, cache_tuple, z_frames[1:])
            # Concatenate first frame with remaining frames
            frame_outputs = jnp.concatenate([first_frame_out[None, ...], remaining_outputs], axis=0)
        else:
            frame_outputs = first_frame_out[None, ...]

        # frame_outputs: [T, B, T_out_per_frame, H_out, W_out, 3]
        # Reshape to [B, T * T_out_per_frame, H_out, W_out, 3]
        t, b, t_out_per_frame, h_out, w_out, c = frame_outputs.shape
        x = frame_outputs.transpose(1, 0, 2, 3, 4, 5).reshape(b, t * t_out_per_frame, h_out, w_out, c)

        # Clamp to [-1, 1]
        x = jnp.clip(x, -1.0, 1.0)

        return x


# scaffolding: decode a short latent video (B=1, T=4, 4x4, 16 channels)
vae = WanVAEDecoder(rngs=nnx.Rngs(0))
latents = jax.random.normal(jax.random.PRNGKey(0), (1, 4, 4, 4, 16))
try:  # scaffolding
    video = vae.decode(latents)
    _report({"jit(scan_frames)", "jit(scan)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
