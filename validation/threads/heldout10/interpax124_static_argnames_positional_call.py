# source: https://github.com/f0uriest/interpax/issues/124
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: fft_interp1d lists n in static_argnames without making it keyword-only; the reporter asks whether a positional n still counts as static. On jax 0.10.2 static_argnames also covers the positional argument, so repeated positional calls with the same n hit the cache.

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
import functools
from typing import Optional

import jax
import jax.numpy as jnp
from jax import jit


def asarray_inexact(x):
    """Convert to jax array with floating point dtype."""
    x = jnp.asarray(x)
    dtype = x.dtype
    if not jnp.issubdtype(dtype, jnp.inexact):
        dtype = jnp.result_type(x, jnp.array(1.0))
    return x.astype(dtype)


def wrap_jit(*args, **kwargs):
    """Wrap a function with jit with optional extra args."""

    def wrapper(fun):
        foo = jit(fun, *args, **kwargs)
        foo = functools.wraps(fun)(foo)
        return foo

    return wrapper


@wrap_jit(static_argnames=["n"])
def fft_interp1d(
    f,
    n: int,
    sx=None,
    dx: float = 1.0,
):
    f = asarray_inexact(f)
    return ifft_interp1d(jnp.fft.rfft(f, axis=0, norm="forward"), f.shape[0], n, sx, dx)


def ifft_interp1d(
    c,
    nx: int,
    n: int,
    sx=None,
    dx: float = 1.0,
):
    nx_half = c.shape[0]
    if n < nx_half:
        # truncate early to reduce computation when shifting
        c = c[:n]

    if sx is not None:
        tau = 2 * jnp.pi
        sx = asarray_inexact(sx)
        sx = jnp.exp(1j * jnp.fft.rfftfreq(nx, dx / tau)[: c.shape[0], None] * sx)
        c = (c[None].T * sx).T
        c = jnp.moveaxis(c, 0, -1)

    if n >= nx:
        return jnp.fft.irfft(c, n, axis=0, norm="forward")

    if (n >= nx_half) and (nx % 2 == 0):
        # then we had not truncated, and we need to half the top frequency
        c = c.at[-1].divide(2)
    c = c.at[0].divide(2) * 2

    x = jnp.linspace(0, dx * nx, n, endpoint=False)
    x = jnp.exp(1j * (c.shape[0] // 2) * x).reshape(n, *((1,) * (c.ndim - 1)))

    c = _fft_pad(c, n, 0)
    return (jnp.fft.ifft(c, axis=0, norm="forward") * x).real


def _fft_pad(c_shift, n_out, axis):
    n_in = c_shift.shape[axis]
    p = n_out - n_in
    p = (p // 2, p - p // 2)
    if n_in % 2 != 0:
        p = p[::-1]
    return jnp.fft.ifftshift(_pad_along_axis(c_shift, p, axis), axis)


def _pad_along_axis(array: jax.Array, pad: tuple = (0, 0), axis: int = 0):
    """Pad with zeros or truncate a given dimension."""
    index = [slice(None)] * array.ndim
    pad_width = [(0, 0)] * array.ndim
    start = stop = None

    if pad[0] < 0:
        start = -pad[0]
        pad = (0, pad[1])
    if pad[1] < 0:
        stop = pad[1]
        pad = (pad[0], 0)

    index[axis] = slice(start, stop)
    pad_width[axis] = pad
    return jnp.pad(array[tuple(index)], pad_width)


xs = jnp.linspace(0, 2 * jnp.pi, 10, endpoint=False)  # scaffolding
for k in range(3):  # scaffolding
    fft_interp1d(jnp.sin((k + 1) * xs), 16)  # scaffolding: n passed positionally
_report({"jit(fft_interp1d)"}, 3)  # scaffolding
