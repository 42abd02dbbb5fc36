# source: https://github.com/chromatix-team/chromatix/pull/150
# expect: trace-time-error at line 95
# runtime: ERROR ConcretizationTypeError
# why: czt builds k = jnp.arange(m + n - 1) from the output length m; jitting czt without marking m static makes m a tracer, so the arange length is not concrete and tracing raises a concretization error, the "arange was a dynamic array" the PR author reports.

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
from typing import Iterable

import jax
import jax.numpy as jnp
import jax.random as random
from jax import jit
from jax import Array
from jax.experimental import checkify
from jax.typing import ArrayLike


def czt(x: ArrayLike, m: int, a: complex, w: complex, axis=-1) -> Array:
    """
    Chirp Z-transform (CZT) of a signal along one dimension. The CZT is a
    generalization of the discrete Fourier transform (DFT). The DFT samples the
    Z plane at uniformly-spaced points on the unit circle, whereas the CZT
    samples the Z plane at uniformly-spaced points on a spiral. This can be
    used to interpolate the DFT to any desired frequency resolution.

    Bluestein's algorithm is used to compute the CZT as a convolution.

    !!! warning
        Using float32/complex64 may have numerical accuracy issues.

    Args:
        x: Input signal to transform.
        m: Number of samples in the output.
        a: The starting point in the complex plane. Must lie on the unit circle
            for numerical stability.
        w: The ratio between points in each step. Should lie on the unit
            circle.
        axis: Axis along which to perform the CZT.
    """

    # check input values
    checkify.check(m > 0, "m needs to positive")
    axis = axis + x.ndim if axis < 0 else axis
    checkify.check(
        axis < x.ndim, "axis needs to be less than the number of dimensions of x"
    )

    # compute modulation terms
    n = x.shape[axis]
    n_czt = m + n - 1
    k = jnp.arange(n_czt)
    wk2 = w ** (k**2 / 2)
    Awk2 = a ** -k[:n] * wk2[:n]
    Fwk2 = jnp.fft.fft(1 / jnp.hstack((wk2[n - 1 : 0 : -1], wk2[:m])), n_czt)
    wk2 = wk2[:m]

    # perform CZT
    x = jnp.moveaxis(x, axis, -1)
    y = jnp.fft.ifft(jnp.fft.fft(x * Awk2, n_czt, axis=-1) * Fwk2, axis=-1)
    y = y[..., n - 1 : n + m - 1] * wk2
    y = jnp.moveaxis(y, -1, axis)
    return y


# tests fail for float32/complex64
jax.config.update("jax_enable_x64", True)
key = random.PRNGKey(42)

N = M = 10
x = random.uniform(key, shape=(N, N)) + 1j * random.uniform(key, shape=(N, N))
w = jnp.exp(-1j * 2 * jnp.pi / N)
try:  # scaffolding
    czt_jit = jit(czt)
    czt_jit(x, a=1.0, w=w, m=M)
    _report({"jit(czt)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
