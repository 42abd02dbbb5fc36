# source: https://github.com/dynamiqs/dynamiqs/pull/808
# expect: trace-time-error at line 74
# runtime: ERROR TracerBoolConversionError
# why: dq.fock checks the photon number with 'if jnp.any(dim - number <= 0): raise', so creating a Fock state from a traced number inside jit fails on the Python branch.

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
from math import prod

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jax import Array


def cdtype():  # scaffolding: dynamiqs' complex dtype helper
    return jnp.complex64


def check_type_int(x: Array, argname: str):
    if not jnp.issubdtype(x.dtype, jnp.integer):
        raise ValueError(
            f'Argument {argname} must be of type integer, but is of type'
            f' {argname}.dtype={x.dtype}.'
        )


# dynamiqs/utils/states.py before PR #808 (docstring trimmed)
def fock(dim, number):
    dim = jnp.asarray(dim)
    number = jnp.asarray(number)
    check_type_int(dim, 'dim')
    check_type_int(number, 'number')

    # check if dim is a single value or a tuple
    if dim.ndim > 1:
        raise ValueError('Argument `dim` must be an integer or a tuple of integers.')

    # if dim is an integer, convert shapes dim: () -> (1,) and number: (...) -> (..., 1)
    if dim.ndim == 0:
        dim = dim[None]
        number = number[..., None]

    # check if number has shape (..., len(ndim))
    if number.shape[-1] != dim.shape[-1]:
        raise ValueError(
            'Argument `number` must have shape `(...)` or `(..., len(dim))`, but'
            f' has shape number.shape={number.shape}.'
        )

    # check if 0 <= number[..., i] < dim[i] for all i
    if jnp.any(dim - number <= 0):
        raise ValueError(
            'Argument `number` must be in the range [0, dim[i]) for each mode i:'
            ' 0 <= number[..., i] < dim[i].'
        )

    # compute all kets
    _vectorized_fock = jnp.vectorize(_fock, signature='(ndim),(ndim)->(prod_ndim,1)')
    return _vectorized_fock(dim, number)


def _fock(dim: Array, number: Array) -> Array:
    # return the tensor product of Fock states |n0> x |n1> x ... x |nf> where dim has
    # shape (ndim,), number has shape (ndim,) and number = [n0, n1,..., nf]
    # this is the unbatched version of fock()
    idx = 0
    for d, n in zip(dim, number):
        idx = d * idx + n
    ket = jnp.zeros((prod(dim), 1), dtype=cdtype())
    return ket.at[idx].set(1.0)


# scaffolding: preparing the initial Fock state inside a jitted function of the photon number
@jax.jit
def initial_population(n):
    psi0 = fock(5, n)
    return jnp.abs(psi0[:, 0]) ** 2


calls = 0
try:
    for n in range(3):
        initial_population(jnp.int32(n))
        calls += 1
    _report({"jit(initial_population)"}, calls)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
