# source: https://github.com/chromatix-team/chromatix/commit/d79957d32122aeb339b4d91afe8b7c4b82c0bccb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit comments the checkify checks out and takes n explicitly; jitted as in its test_czt_jit (n, m, axis static) it compiles once for 3 calls.
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

import jax  # scaffolding
import jax.numpy as jnp
from jax import Array
from jax.typing import ArrayLike


def czt(x: ArrayLike, n: int, m: int, a: complex, w: complex, axis=-1) -> Array:
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
        n: Number of samples in the input at dimension `axis`.
        m: Number of samples in the output.
        a: The starting point in the complex plane. Must lie on the unit circle
            for numerical stability.
        w: The ratio between points in each step. Should lie on the unit
            circle.
        axis: Axis along which to perform the CZT.
    """

    # TODO switch to jaxtyping
    # # check input values
    # checkify.check(m > 0, "m needs to positive")
    # axis = axis + x.ndim if axis < 0 else axis
    # checkify.check(
    #     axis < x.ndim, "axis needs to be less than the number of dimensions of x"
    # )

    # compute modulation terms
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


N = M = 10  # scaffolding: as in the commit's test_czt_jit
key = jax.random.PRNGKey(0)  # scaffolding
w = jnp.exp(-1j * 2 * jnp.pi / N)  # scaffolding
czt_jit = jax.jit(czt, static_argnums=[1, 2, 5])  # scaffolding: from the commit's test_czt_jit
try:  # scaffolding
    for i in range(3):  # scaffolding
        x = jax.random.uniform(jax.random.PRNGKey(i), shape=(N, N)) + 1j * jax.random.uniform(key, shape=(N, N))
        czt_x = czt_jit(x, a=1.0, w=w, m=M, n=N)  # scaffolding: the test's call
    _report({"jit(czt)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
