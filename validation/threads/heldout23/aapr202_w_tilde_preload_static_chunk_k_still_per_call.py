# source: https://github.com/PyAutoLabs/PyAutoArray/pull/202
# expect: jit-in-loop-or-body at line 142
# runtime: COMPILES 3 CALLS 3
# why: after the PR commit chunk_k is a static keyword, but jax.jit is still applied to a freshly defined nested function on every call, so every call compiles again.
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


import numpy as np
import jax  # scaffolding

jax.config.update("jax_enable_x64", True)  # scaffolding: PyAutoArray runs in float64


def w_tilde_curvature_preload_interferometer_via_jax_from(
    noise_map_real: np.ndarray,
    uv_wavelengths: np.ndarray,
    shape_masked_pixels_2d,
    grid_radians_2d: np.ndarray,
    *,
    chunk_k: int = 2048,
) -> np.ndarray:
    """
    JAX implementation of the interferometer W-tilde curvature preload.

    This version is intended for performance (CPU/GPU/TPU) and therefore:
      - uses JIT compilation internally
      - uses a compiled for-loop (lax.fori_loop) over fixed-size visibility chunks
      - does not support progress bars or memory reporting (those require Python loops)

    See `w_tilde_curvature_preload_interferometer_from` for full description.
    """
    import jax
    import jax.numpy as jnp

    if chunk_k <= 0:
        raise ValueError("chunk_k must be a positive integer")

    y_shape, x_shape = shape_masked_pixels_2d

    # Device arrays; keep float64 to match NumPy path as closely as possible.
    noise_map_real_x = jnp.asarray(noise_map_real, dtype=jnp.float64)
    uv_wavelengths_x = jnp.asarray(uv_wavelengths, dtype=jnp.float64)
    grid_radians_2d_x = jnp.asarray(grid_radians_2d, dtype=jnp.float64)

    # Precompute weights and angular frequencies on device
    w_x = 1.0 / (noise_map_real_x**2)
    ku_x = 2.0 * jnp.pi * uv_wavelengths_x[:, 0]
    kv_x = 2.0 * jnp.pi * uv_wavelengths_x[:, 1]

    grid = grid_radians_2d_x[:y_shape, :x_shape]
    gy = grid[..., 0]
    gx = grid[..., 1]

    # -----------------------------
    # IMPORTANT: pad so dynamic_slice(chunk_k) is always legal
    # -----------------------------
    K = int(uv_wavelengths_x.shape[0])  # known at trace/compile time
    n_chunks = (K + chunk_k - 1) // chunk_k
    K_pad = n_chunks * chunk_k
    pad_len = K_pad - K

    if pad_len > 0:
        ku_x = jnp.pad(ku_x, (0, pad_len))
        kv_x = jnp.pad(kv_x, (0, pad_len))
        w_x = jnp.pad(w_x, (0, pad_len))

    # A fixed [chunk_k] index vector used to mask the padded tail (last chunk).
    idx = jnp.arange(chunk_k)


    def _compute_all_quadrants(gy, gx, *, chunk_k: int):
        # Corner coordinates
        y00, x00 = gy[0, 0], gx[0, 0]
        y0m, x0m = gy[0, x_shape - 1], gx[0, x_shape - 1]
        ym0, xm0 = gy[y_shape - 1, 0], gx[y_shape - 1, 0]
        ymm, xmm = gy[y_shape - 1, x_shape - 1], gx[y_shape - 1, x_shape - 1]

        def accum_from_corner_jax(y_ref, x_ref, gy_block, gx_block):
            dy = y_ref - gy_block
            dx = x_ref - gx_block

            acc = jnp.zeros(gy_block.shape, dtype=jnp.float64)

            def body(i, acc_):
                k0 = i * chunk_k

                # Always legal because ku_x/kv_x/w_x were padded to length K_pad.
                ku_s = jax.lax.dynamic_slice(ku_x, (k0,), (chunk_k,))
                kv_s = jax.lax.dynamic_slice(kv_x, (k0,), (chunk_k,))
                w_s = jax.lax.dynamic_slice(w_x, (k0,), (chunk_k,))

                # Mask the padded tail (only the first K entries are real).
                valid = (idx + k0) < K
                w_s = jnp.where(valid, w_s, 0.0)

                phase = dx[..., None] * ku_s[None, None, :] + dy[..., None] * kv_s[None, None, :]
                return acc_ + jnp.sum(jnp.cos(phase) * w_s[None, None, :], axis=2)

            return jax.lax.fori_loop(0, n_chunks, body, acc)

        out = jnp.zeros((2 * y_shape, 2 * x_shape), dtype=jnp.float64)

        # (+,+)
        out = out.at[:y_shape, :x_shape].set(accum_from_corner_jax(y00, x00, gy, gx))

        # (+,-) x-flip
        if x_shape > 1:
            block = accum_from_corner_jax(y0m, x0m, gy[:, ::-1], gx[:, ::-1])
            out = out.at[:y_shape, -1:-(x_shape):-1].set(block[:, 1:])

        # (-,+) y-flip
        if y_shape > 1:
            block = accum_from_corner_jax(ym0, xm0, gy[::-1, :], gx[::-1, :])
            out = out.at[-1:-(y_shape):-1, :x_shape].set(block[1:, :])

        # (-,-) x- and y-flip
        if (y_shape > 1) and (x_shape > 1):
            block = accum_from_corner_jax(ymm, xmm, gy[::-1, ::-1], gx[::-1, ::-1])
            out = out.at[-1:-(y_shape):-1, -1:-(x_shape):-1].set(block[1:, 1:])

        return out

    _compute_all_quadrants_jit = jax.jit(_compute_all_quadrants, static_argnames=("chunk_k",))

    out = _compute_all_quadrants_jit(gy, gx, chunk_k=chunk_k)
    return np.asarray(out)



rng = np.random.default_rng(0)  # scaffolding: a small interferometer data set and a 6x5 masked grid
noise_map_real = rng.uniform(1.0, 2.0, size=300)  # scaffolding
uv_wavelengths = rng.normal(0.0, 1e4, size=(300, 2))  # scaffolding
grid_radians_2d = rng.normal(0.0, 1e-5, size=(6, 5, 2))  # scaffolding
for _ in range(3):  # scaffolding: the preload is recomputed for each dataset/fit
    w_tilde_curvature_preload_interferometer_via_jax_from(  # scaffolding
        noise_map_real, uv_wavelengths, (6, 5), grid_radians_2d, chunk_k=128  # scaffolding
    )  # scaffolding
_report({"jit(_compute_all_quadrants)"}, 3)  # scaffolding
