# source: https://github.com/spectralDNS/jaxfun/commit/bdf0c49c8863187a8eff5d8285f2fd31b1787d7c
# expect: none
# runtime: COMPILES 2 CALLS 8
# why: Before the commit eval_basis_function is plain @jax.jit with the integer degree i traced, and chebval branches with Python if on len(c) inside jit; i only enters arithmetic and len(c) is a static shape, so six degrees compile eval_basis_function once and two same-length series compile chebval once.

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

import jax
import jax.numpy as jnp
from jax import Array


@jax.jit
def chebval(x: float, c: Array) -> Array:
    """
    Evaluate a Chebyshev series at points x.

    .. math:: p(x) = c_0 * T_0(x) + c_1 * T_1(x) + ... + c_n * T_n(x)

    Parameters
    ----------
    x : float
    c : Array

    Returns
    -------
    values : Array

    Notes
    -----
    The evaluation uses Clenshaw recursion, aka synthetic division.

    """
    # return jnp.sum(jax.vmap(lambda k: c[k]*jnp.cos(k*jnp.acos(x)))(jnp.arange(len(c))), axis=0) # noqa

    if len(c) == 1:
        # Multiply by 0 * x for shape
        return c[0] + 0 * x
    if len(c) == 2:
        return c[0] + c[1] * x

    def body_fun(i: int, val: tuple[Array, Array]) -> tuple[Array, Array]:
        c0, c1 = val

        tmp = c0
        c0 = c[-i] - c1
        c1 = tmp + c1 * 2 * x

        return c0, c1

    c0 = jnp.ones_like(x) * c[-2]
    c1 = jnp.ones_like(x) * c[-1]

    c0, c1 = jax.lax.fori_loop(3, len(c) + 1, body_fun, (c0, c1))
    return c0 + c1 * x


@jax.jit
def eval_basis_function(x: float, i: int) -> Array:
    return jnp.cos(i * jnp.acos(x))
    # return chebval(x, (0,)*i+(1,))


# scaffolding: evaluate T_i on quadrature points for each degree, and Chebyshev series of two lengths
x = jnp.cos(jnp.pi * (2 * jnp.arange(8) + 1) / 16)
calls = 0
for i in range(6):
    Ti = eval_basis_function(x, i)
    calls += 1
for c in (jnp.array([1.0, 0.5, 0.25, 0.125]), jnp.array([0.0, 1.0, 0.0, 2.0])):
    p = chebval(x, c)
    calls += 1
_report({"jit(eval_basis_function)", "jit(chebval)"}, calls)
