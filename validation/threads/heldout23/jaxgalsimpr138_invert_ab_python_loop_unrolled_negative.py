# source: https://github.com/GalSim-developers/JAX-GalSim/pull/138
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: _invert_ab_noraise unrolls ten Newton steps in a Python loop inside jit, which only lengthens the one compile; same-shape calls reuse it.
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


import functools

import jax
import jax.numpy as jnp


class GalSimValueError(ValueError):  # scaffolding: jax_galsim.errors
    def __init__(self, message, value=None):
        super().__init__(message)


class GalSimIncompatibleValuesError(ValueError):  # scaffolding: jax_galsim.errors
    def __init__(self, message, **kwargs):
        super().__init__(message)


# jax_galsim/utilities.py (the @implements docstring decorators dropped)
@functools.partial(jax.jit, static_argnames=("dtype",))
def horner(x, coef, dtype=None):
    x = jnp.array(x)
    coef = jnp.atleast_1d(coef)
    if dtype is None:
        res_dtype = jnp.result_type(x, coef)
    else:
        res_dtype = dtype

    if len(coef.shape) != 1:
        raise GalSimValueError("coef must be 1-dimensional", coef)

    # TODO: we cannot trim zeros in jax galsim because then for all zeros
    # jax attempts to index an array with shape = (0,) which throws an
    # error.
    # coef = jnp.trim_zeros(coef, trim="b")  # trim only from the back

    return jax.lax.cond(
        coef.shape[0] == 0,
        lambda x, coef: jnp.zeros_like(x, dtype=res_dtype),
        lambda x, coef: jnp.array(jnp.polyval(jnp.flip(coef), x), dtype=res_dtype),
        x,
        coef,
    )


@functools.partial(jax.jit, static_argnames=("triangle", "dtype"))
def horner2d(x, y, coefs, dtype=None, triangle=False):
    x = jnp.array(x)
    y = jnp.array(y)
    coefs = jnp.atleast_1d(coefs)
    if dtype is None:
        res_dtype = jnp.result_type(x, coefs)
    else:
        res_dtype = dtype
    res = jnp.zeros_like(x, dtype=res_dtype)

    if x.shape != y.shape:
        raise GalSimIncompatibleValuesError("x and y are not the same shape", x=x, y=y)

    if len(coefs.shape) != 2:
        raise GalSimValueError("coefs must be 2-dimensional", coefs)

    if triangle and coefs.shape[0] != coefs.shape[1]:
        raise GalSimIncompatibleValuesError(
            "coefs must be square if triangle is True", coefs=coefs, triangle=triangle
        )

    coefs = coefs[::-1, :]
    if triangle:
        coefs = jnp.tril(coefs)

    # this loop in python looks like
    # Note: for each power of x, it computes all powers of y
    #
    # result = np.zeros_like(x)
    # temp = np.zeros_like(x)
    #
    # for coef in coefs[::-1]:
    #     result *= x
    #     _horner(y, coef, temp)
    #     result += temp

    res = jnp.zeros_like(x, dtype=res_dtype)
    res, _ = jax.lax.scan(
        lambda res, p: (res * x + horner(y, p, dtype=res_dtype), None), res, coefs
    )

    return res.astype(res_dtype)


# jax_galsim/fitswcs.py before the PR
@jax.jit
def _invert_ab_noraise(u, v, ab, abp=None):
    # get guess from abp if we have it
    if abp is None:
        x = u.copy()
        y = v.copy()
    else:
        x = horner2d(u, v, abp[0])
        y = horner2d(u, v, abp[1])

    # Code below from galsim C++ layer and written by Josh Meyers
    # Matt Becker translated into jax

    # Assemble horner2d coefs for derivatives
    nab = ab.shape[1]
    dudxcoef = (jnp.arange(nab)[:, None] * ab[0])[1:, :-1]
    dudycoef = (jnp.arange(nab) * ab[0])[:-1, 1:]
    dvdxcoef = (jnp.arange(nab)[:, None] * ab[1])[1:, :-1]
    dvdycoef = (jnp.arange(nab) * ab[1])[:-1, 1:]

    for _ in range(10):
        # Want Jac^-1 . du
        # du
        du = horner2d(x, y, ab[0], triangle=True) - u
        dv = horner2d(x, y, ab[1], triangle=True) - v
        # J
        dudx = horner2d(x, y, dudxcoef, triangle=True)
        dudy = horner2d(x, y, dudycoef, triangle=True)
        dvdx = horner2d(x, y, dvdxcoef, triangle=True)
        dvdy = horner2d(x, y, dvdycoef, triangle=True)
        # J^-1 . du
        det = dudx * dvdy - dudy * dvdx
        dx = -(du * dvdy - dv * dudy) / det
        dy = -(-du * dvdx + dv * dudx) / det

        x += dx
        y += dy

    x, y = jax.lax.cond(
        jnp.maximum(jnp.max(jnp.abs(dx)), jnp.max(jnp.abs(dy))) > 2e-12,
        lambda x, y: (x * jnp.nan, y * jnp.nan),
        lambda x, y: (x, y),
        x,
        y,
    )

    return x, y

ab = jnp.array([[[0.0, 0.0, 1e-4], [1.0, 2e-4, 0.0], [1e-5, 0.0, 0.0]],  # scaffolding: a small SIP-like
                [[0.0, 1.0, 3e-5], [0.0, 1e-4, 0.0], [2e-4, 0.0, 0.0]]])  # scaffolding: distortion, order 2
for shift in (0.0, 0.5, 1.0):  # scaffolding: three world->pixel inversions of 100 positions
    u = jnp.linspace(-10.0, 10.0, 100) + shift  # scaffolding
    v = jnp.linspace(-5.0, 5.0, 100) - shift  # scaffolding
    _invert_ab_noraise(u, v, ab)  # scaffolding
_report({"jit(_invert_ab_noraise)"}, 3)  # scaffolding
