# source: https://github.com/LouisDesdoigts/dLux/commit/0e24b2fad307c8592b87389116a6d5077af7c1a7
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the commit casts npix to a tuple of Python ints and the mean/std to tuples, so the jitted PSF model builds its grids from static sizes and compiles once for three widths.
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


def _cast_tuple(x, name):

    # Validate npixels and ensure tuple
    if isinstance(x, int):
        x = (x,)
    elif isinstance(x, tuple):
        for n in x:
            if not isinstance(n, int):
                raise ValueError(f"All {name} must be integers.")
    else:
        raise ValueError(f"{name} must be an int or a tuple of ints.")

    return x


def _cast_scalar(x, ndim, name):

    _is_numeric = lambda x: isinstance(x, (int, float))
    _is_scalar_array = lambda x: isinstance(x, Array) and x.ndim == 0
    _is_scalar = lambda x: _is_numeric(x) or _is_scalar_array(x)

    if _is_scalar(x):
        x = (x,) * ndim
    elif isinstance(x, Array):
        if x.ndim != 1 or x.shape[0] != ndim:
            raise ValueError(f"Length of {name} array must match number of dimensions.")
        x = tuple(x)
    elif isinstance(x, tuple):
        if len(x) != ndim:
            raise ValueError(f"Length of {name} must match number of dimensions.")
        for z in x:
            if not _is_scalar(z):
                raise ValueError(
                    f"All {name} must be scalars (int, float, or scalar Array)."
                )
    else:
        raise ValueError(
            f"{name} must be a scalar (int, float, or scalar Array) or "
            f"a tuple of scalars."
        )

    return x


def _input_len(x, name):
    if isinstance(x, tuple):
        return len(x)
    if isinstance(x, Array):
        if x.ndim == 0:
            return 1
        if x.ndim == 1:
            return x.shape[0]
        raise ValueError(
            f"{name} must be a scalar, tuple, or 1D array; got ndim={x.ndim}."
        )
    return 1


def gaussian(
    mean: float | Array = 0.0,
    std: float | Array = 1.0,
    npix: int | tuple[int, ...] = 64,
    extent: float = 5.0,
) -> Array:
    # Check inputs and cast to tuples
    npix = _cast_tuple(npix, "npix")
    ndim = max(len(npix), _input_len(mean, "mean"), _input_len(std, "std"))
    mean = _cast_scalar(mean, ndim, "mean")
    std = _cast_scalar(std, ndim, "std")

    # Generate per-axis coordinates and corresponding 1D Gaussians
    linspaces = jtu.map(
        lambda n: np.linspace(-extent, extent, n),
        npix,
    )
    one_d_gauss = jtu.map(
        lambda axis, m, s: jsp.stats.norm.pdf(axis, loc=m, scale=s),
        linspaces,
        mean,
        std,
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
