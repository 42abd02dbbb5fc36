# source: https://github.com/dynamiqs/dynamiqs/pull/925
# expect: trace-time-error at line 76
# runtime: ERROR TracerBoolConversionError
# why: When dq.wigner is jitted, the normalisation-warning helper evaluates 'if not jnp.allclose(...)' on the traced norm, a Python branch on a tracer, so tracing raises.
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
from functools import partial
import warnings

import jax
import jax.numpy as jnp
from jax import Array, lax
from jaxtyping import ArrayLike

QArrayLike = ArrayLike  # scaffolding


# scaffolding: dynamiqs is not installed; minimal stand-ins for its qarray helpers
def to_jax(x):
    return jnp.asarray(x)


def check_shape(x, argname, *shapes, subs=None):
    return x


def todm(x):
    return x @ jnp.conj(jnp.swapaxes(x, -1, -2)) if x.shape[-1] == 1 else x


class _QArray:
    def __init__(self, data):
        self.data = data

    def norm(self):
        if self.data.shape[-1] == 1:
            return jnp.sqrt(jnp.sum(jnp.abs(self.data) ** 2, axis=(-2, -1)))
        return jnp.real(jnp.trace(self.data, axis1=-2, axis2=-1))


def asqarray(x):
    return _QArray(jnp.asarray(x))


def _get_default_dtype():
    return jnp.float32
# end scaffolding


def _warn_non_normalised(x: QArrayLike, argname: str):
    # issue a warning if the input qarray-like is not normalised
    x = asqarray(x)
    atol = 1e-2 if _get_default_dtype() == jnp.float32 else 1e-6
    norm = x.norm()
    if not jnp.allclose(norm, 1.0, rtol=0.0, atol=atol):
        warnings.warn(
            f'Argument {argname} is not normalized (expected norm 1.0 but norm is'
            f' {norm}).',
            stacklevel=2,
        )

def wigner(
    state: QArrayLike,
    xmax: float = 6.0,
    ymax: float = 6.0,
    npixels: int = 201,
    xvec: ArrayLike | None = None,
    yvec: ArrayLike | None = None,
    g: float = 2.0,
) -> tuple[Array, Array, Array]:
    state = to_jax(state)
    check_shape(state, 'state', '(..., n, 1)', '(..., n, n)')
    _warn_non_normalised(state, 'state')

    # === convert state to density matrix
    state = to_jax(todm(state))

    # === prepare xvec and yvec
    xvec = jnp.linspace(-xmax, xmax, npixels) if xvec is None else jnp.asarray(xvec)
    check_shape(xvec, 'xvec', '(n,)', subs={'n': 'nxvec'})
    yvec = jnp.linspace(-ymax, ymax, npixels) if yvec is None else jnp.asarray(yvec)
    check_shape(yvec, 'yvec', '(n,)', subs={'n': 'nyvec'})

    return xvec, yvec, _wigner(state, xvec, yvec, g)


@partial(jax.jit)
@partial(jnp.vectorize, signature='(n,m)->(k,l)', excluded={1, 2, 3})
def _wigner(state: Array, xvec: Array, yvec: Array, g: float = 2.0) -> Array:
    """Compute the wigner distribution of a density matrix using the iterative method
    of QuTiP based on the Clenshaw summation algorithm.
    """
    n = state.shape[-1]

    x, p = jnp.meshgrid(xvec, yvec, indexing='ij')
    a = 0.5 * g * (x + 1.0j * p)
    a2 = jnp.abs(a) ** 2

    w = 2 * state[0, -1] * jnp.ones_like(a)
    state = state * (2 * jnp.ones((n, n)) - jnp.eye(n))

    def loop(i: int, w: Array) -> Array:
        i = n - 2 - i
        w = w * (2 * a * (i + 1) ** (-0.5))
        return w + _laguerre_series(i, 4 * a2, state, n)

    w = lax.fori_loop(0, n - 1, loop, w)

    return w.real * jnp.exp(-2 * a2) * 0.5 * g**2 / jnp.pi


def _diag_element(mat: jnp.array, diag: int, element: int) -> float:
    r"""Return the element of a matrix `mat` at `jnp.diag(mat, diag)[element]`.
    This function is jittable for `diag` while it is not for the `jnp.diag` version.
    """
    assert mat.shape[0] == mat.shape[1], 'Matrix must be square.'
    n = mat.shape[0]
    element = jax.lax.select(element < 0, n - jnp.abs(diag) - jnp.abs(element), element)
    return mat[jnp.maximum(-diag, 0) + element, jnp.maximum(diag, 0) + element]


def _laguerre_series(i: int, x: Array, rho: Array, n: int) -> Array:
    r"""Evaluate a polynomial series of the form `$\sum_n c_n L_n^i$` where `$L_n$` is
    such that `$L_n^i = (-1)^n \sqrt(i!n!/(i+n)!) LaguerreL[n,i,x]$`.
    """

    def n_1() -> Array:
        return _diag_element(rho, i, 0) * jnp.ones_like(x)

    def n_2() -> Array:
        c0 = _diag_element(rho, i, 0)
        c1 = _diag_element(rho, i, 1)
        return (c0 - c1 * (i + 1 - x) * (i + 1) ** (-0.5)) * jnp.ones_like(x)

    def n_other() -> Array:
        cm2 = _diag_element(rho, i, -2)
        cm1 = _diag_element(rho, i, -1)
        y0 = cm2 * jnp.ones_like(x)
        y1 = cm1 * jnp.ones_like(x)

        def loop(j: int, args: tuple[Array, Array]) -> tuple[Array, Array]:
            def body() -> tuple[Array, Array]:
                k = n + 1 - i - j
                y0, y1 = args
                ckm1 = _diag_element(rho, i, -j)
                y0, y1 = (
                    ckm1 - y1 * (k * (i + k) / ((i + k + 1) * (k + 1))) ** 0.5,
                    y0 - y1 * (i + 2 * k - x + 1) * ((i + k + 1) * (k + 1)) ** -0.5,
                )

                return y0, y1

            return lax.cond(j >= n + 1 - i, lambda: args, body)

        y0, y1 = lax.fori_loop(3, n + 1, loop, (y0, y1))

        return y0 - y1 * (i + 1 - x) * (i + 1) ** (-0.5)

    return lax.cond(n - i == 1, n_1, lambda: lax.cond(n - i == 2, n_2, n_other))


# scaffolding: a user jits dq.wigner on a coherent-ish ket (PR title: "not jit-compatible")
n = 8
psi = jnp.exp(-0.5 * jnp.arange(n, dtype=jnp.float32)).astype(jnp.complex64)[:, None]
psi = psi / jnp.linalg.norm(psi)
wigner_jit = jax.jit(wigner, static_argnames=("npixels",))
try:
    xvec, yvec, w = wigner_jit(psi, npixels=21)
    xvec, yvec, w = wigner_jit(psi, npixels=21)
    _report({"jit(wigner)"}, 2)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
