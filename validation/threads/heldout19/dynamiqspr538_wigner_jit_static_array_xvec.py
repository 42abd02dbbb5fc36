# source: https://github.com/dynamiqs/dynamiqs/pull/538
# expect: unhashable-static at line 52
# runtime: ERROR ValueError
# why: wigner is jitted with xvec and yvec declared static, but they are coordinate arrays, so a call with a user grid fails because jax arrays are not hashable static arguments.
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
# dynamiqs/dynamiqs PR #538 ("Wrap wigner for jit"): dynamiqs/utils/utils/wigner.py before the PR (3768b5d1^)
# from __future__ import annotations  # scaffolding: dropped, the measurement harness precedes it

from functools import partial

import jax
import jax.numpy as jnp
from jax import Array, lax
from jaxtyping import ArrayLike

import jax.numpy as _jnp  # scaffolding


def check_shape(x, name, *shapes):  # scaffolding: dynamiqs._checks.check_shape stand-in (no-op)
    pass


def eye(n):  # scaffolding: dynamiqs.utils.operators.eye stand-in
    return _jnp.eye(n)


def todm(x):  # scaffolding: dynamiqs.utils.utils.general.todm stand-in
    return x @ x.conj().swapaxes(-1, -2) if x.shape[-1] == 1 else x

__all__ = ['wigner']


@partial(jax.jit, static_argnames=('npixels', 'xvec', 'yvec'))
@partial(jnp.vectorize, signature='(n,m)->(k),(l),(k,l)', excluded={1, 2, 3})
def wigner(
    state: ArrayLike,
    xmax: float = 6.2832,
    ymax: float = 6.2832,
    npixels: int = 200,
    xvec: ArrayLike | None = None,
    yvec: ArrayLike | None = None,
    g: float = 2.0,
) -> tuple[Array, Array, Array]:
    r"""Compute the Wigner distribution of a ket or density matrix.

    Args:
        state _(array_like of shape (..., n, 1) or (..., n, n))_: Ket or density matrix.
        xmax: Maximum value of x.
        ymax: Maximum value of p.
        npixels: Number of pixels in each direction.
        xvec: List of x coordinates to compute wigner elements on. If none,
            `xvec = jnp.linspace(-xmax, xmax, npixels)`.
        yvec: List of y coordinates to compute wigner elements on.
            If none, `yvec = jnp.linspace(-ymax, ymax, npixels)`.
        g: Scaling factor of Wigner quadratures, such that `a = 0.5 * g * (x + i * p)`.

    Returns:
        A tuple `(xvec, yvec, w)` where

            - xvec: Array of shape _(npixels)_ containing x values
                or `xvec` if provided in argument
            - yvec: Array of shape _(npixels)_ containing p values
                or `yvec` if provided in argument
            - w: Array of shape _(npixels, npixels)_ containing the wigner
                distribution at all (x, p) points.
    """
    state = jnp.asarray(state)
    check_shape(state, 'state', '(..., n, 1)', '(..., n, n)')

    if xvec is None:
        xvec = jnp.linspace(-xmax, xmax, npixels)
    else:
        check_shape(xvec, 'xvec', '(n,)')

    if yvec is None:
        yvec = jnp.linspace(-ymax, ymax, npixels)
    else:
        check_shape(yvec, 'yvec', '(n,)')

    state = todm(state)
    w = _wigner_clenshaw(state, xvec, yvec, g)

    return xvec, yvec, w


def _wigner_clenshaw(
    rho: ArrayLike, xvec: ArrayLike, yvec: ArrayLike, g: float
) -> Array:
    """Compute the wigner distribution of a density matrix using the iterative method
    of QuTiP based on the Clenshaw summation algorithm.
    """
    rho = jnp.asarray(rho)
    xvec = jnp.asarray(xvec)
    yvec = jnp.asarray(yvec)
    n = rho.shape[-1]

    x, p = jnp.meshgrid(xvec, yvec, indexing='ij')
    a = 0.5 * g * (x + 1.0j * p)
    a2 = jnp.abs(a) ** 2

    w = 2 * rho[0, -1] * jnp.ones_like(a)
    rho = rho * (2 * jnp.ones((n, n)) - eye(n))

    def loop(i: int, w: Array) -> Array:
        i = n - 2 - i
        w = w * (2 * a * (i + 1) ** (-0.5))
        return w + (_laguerre_series(i, 4 * a2, rho, n))

    w = lax.fori_loop(0, n - 1, loop, w)

    return (w.real * jnp.exp(-2 * a2) * 0.5 * g**2 / jnp.pi).T


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
            k = n + 1 - i - j
            y0, y1 = args
            ckm1 = _diag_element(rho, i, -j)
            y0, y1 = (
                ckm1 - y1 * (k * (i + k) / ((i + k + 1) * (k + 1))) ** 0.5,
                y0 - y1 * (i + 2 * k - x + 1) * ((i + k + 1) * (k + 1)) ** -0.5,
            )

            return y0, y1

        y0, y1 = lax.fori_loop(3, n + 1 - i, loop, (y0, y1))

        return y0 - y1 * (i + 1 - x) * (i + 1) ** (-0.5)

    return lax.cond(n - i == 1, n_1, lambda: lax.cond(n - i == 2, n_2, n_other))


state = _jnp.zeros((8, 1), dtype=complex).at[1, 0].set(1.0)  # scaffolding: Fock state |1>, n=8
xvec = _jnp.linspace(-3.0, 3.0, 40)  # scaffolding: user-supplied grid, as the docstring allows
calls = 0  # scaffolding
try:  # scaffolding
    for _ in range(3):  # scaffolding
        wigner(state, xvec=xvec, yvec=xvec)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(wigner)", "jit(_wigner)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding

