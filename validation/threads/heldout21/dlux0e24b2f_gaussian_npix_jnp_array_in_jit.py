# source: https://github.com/LouisDesdoigts/dLux/commit/0e24b2fad307c8592b87389116a6d5077af7c1a7
# expect: trace-time-error at line 43
# runtime: ERROR ConcretizationTypeError
# why: gaussian turns npix into a jnp array with np.asarray/np.atleast_1d (np is jax.numpy), which is a tracer inside a jitted PSF model, so np.linspace receives a traced number of points and raises a ConcretizationTypeError.
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


from jax import lax, Array
import jax.numpy as np
import jax.scipy as jsp
import jax.tree as jtu
import jax  # scaffolding


def gaussian(
    mean: float | Array = 0.0,
    std: float | Array = 1.0,
    npix: int | Array = 64,
    extent: float = 5.0,
) -> Array:
    # Ensure arrays
    mean = np.atleast_1d(np.asarray(mean, dtype=float))
    std = np.atleast_1d(np.asarray(std, dtype=float))
    npix_arr = np.atleast_1d(np.asarray(npix, dtype=int))
    ndim = max(mean.size, std.size, npix_arr.size)

    # Broadcast scalar inputs to nD
    if mean.size == 1:
        mean = np.repeat(mean, ndim)
    elif mean.size != ndim:
        raise ValueError(
            f"mean shape mismatch: got {mean.size} elements but expected "
            f"either 1 (scalar) or {ndim} (one per dimension)."
        )

    if std.size == 1:
        std = np.repeat(std, ndim)
    elif std.size != ndim:
        raise ValueError(
            f"std shape mismatch: got {std.size} elements but expected "
            f"either 1 (scalar) or {ndim} (one per dimension)."
        )

    if npix_arr.size == 1:
        npix_arr = np.repeat(npix_arr, ndim)
    elif npix_arr.size != ndim:
        raise ValueError(
            f"npix shape mismatch: got {npix_arr.size} elements but expected "
            f"either 1 (scalar) or {ndim} (one per dimension)."
        )

    # Generate per-axis coordinates and corresponding 1D Gaussians
    linspaces = jtu.map(
        lambda n: np.linspace(-extent, extent, n),
        tuple(npix_arr),
    )
    one_d_gauss = jtu.map(
        lambda axis, m, s: jsp.stats.norm.pdf(axis, loc=m, scale=s),
        linspaces,
        tuple(mean),
        tuple(std),
    )

    # Construct nD separable Gaussian kernel from 1D marginals
    kernel = np.array(np.meshgrid(*one_d_gauss, indexing="xy")).prod(0)
    return kernel / np.sum(kernel)


@jax.jit  # scaffolding: a jitted PSF model with a Gaussian jitter kernel of traced width
def jitter_kernel(std):  # scaffolding
    return gaussian(mean=0.0, std=std, npix=(33, 33))  # scaffolding


try:  # scaffolding
    for std in [0.5, 1.0, 1.5]:  # scaffolding
        jitter_kernel(std).block_until_ready()  # scaffolding
    _report({"jit(jitter_kernel)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
