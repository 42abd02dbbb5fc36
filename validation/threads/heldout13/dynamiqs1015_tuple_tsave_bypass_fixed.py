# source: https://github.com/dynamiqs/dynamiqs/pull/1015
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: After the PR a tuple tsave skips the array conversion and check, so jax.jit(dssesolve, static_argnames=('tsave',)) traces once and reuses the compiled solver.

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

import equinox as eqx
import jax
import jax.numpy as jnp


# scaffolding: stand-ins for dynamiqs helpers (qarrays are plain arrays here)
def astimeqarray(x):
    return jnp.asarray(x)


asqarray = astimeqarray


def _check_dssesolve_args(H, Ls, psi0, exp_ops):
    pass


def check_options(options, name):
    pass


class Options:
    def initialise(self):
        return self


class EulerMaruyama(eqx.Module):
    dt: float = 1e-1


@partial(jax.jit, static_argnames=('tsave', 'gradient', 'options'))
def _vectorized_dssesolve(H, Ls, psi0, tsave, keys, exp_ops, method, gradient, options):
    # scaffolding: a fixed-step Euler-Maruyama stand-in for the diffusive SSE solver
    dt = tsave[1] - tsave[0]
    L = Ls[0]

    def step(psi, key):
        dw = jnp.sqrt(dt) * jax.random.normal(key, ())
        psi = psi - 1j * dt * (H @ psi) - 0.5 * dt * (L.conj().T @ L @ psi) + dw * (L @ psi)
        return psi / jnp.linalg.norm(psi), psi

    def one(key):
        return jax.lax.scan(step, psi0, jax.random.split(key, len(tsave)))[1]

    return jax.vmap(one)(keys)


def check_times(x, argname: str, allow_empty: bool = False):
    # check that an array of time is valid (it must be a 1D array sorted in strictly
    # ascending order)
    if x.ndim != 1:
        raise ValueError(
            f'Argument {argname} must be a 1D array, but is a {x.ndim}D array.'
        )
    if not allow_empty and len(x) == 0:
        raise ValueError(f'Argument {argname} must contain at least one element.')

    # this check is written to be JIT-compatible
    return eqx.error_if(
        x,
        x[1:] < x[:-1],
        f'Argument {argname} must be sorted in strictly ascending order.',
    )


# dynamiqs/integrators/apis/dssesolve.py after PR #1015 (signature types and docstring trimmed)
def dssesolve(
    H,
    jump_ops,
    psi0,
    tsave,
    keys,
    *,
    exp_ops=None,
    method=None,
    gradient=None,
    options=Options(),  # noqa: B008
):
    # === convert arguments
    H = astimeqarray(H)
    Ls = [astimeqarray(L) for L in jump_ops]
    psi0 = asqarray(psi0)
    keys = jnp.asarray(keys)
    if exp_ops is not None:
        exp_ops = [asqarray(E) for E in exp_ops] if len(exp_ops) > 0 else None

    # === check arguments
    _check_dssesolve_args(H, Ls, psi0, exp_ops)
    check_options(options, 'dssesolve')
    options = options.initialise()

    # todo: fix static tsave
    # this condition allows the user to pass a tuple for tsave to bypass this bit of
    # code (e.g., to JIT-compile this function)
    if not isinstance(tsave, tuple):
        tsave = jnp.asarray(tsave)
        tsave = check_times(tsave, 'tsave')
        tsave = tuple(tsave.tolist())

    if method is None:
        raise ValueError('Argument `method` must be specified.')

    # we implement the jitted vectorization in another function to pre-convert QuTiP
    # objects (which are not JIT-compatible) to JAX arrays
    return _vectorized_dssesolve(
        H, Ls, psi0, tsave, keys, exp_ops, method, gradient, options
    )


# scaffolding: the usage from the PR description, on a driven qubit with one measured jump operator
H = jnp.array([[0.0, 1.0], [1.0, 0.0]], dtype=jnp.complex64)
L = jnp.array([[0.0, 1.0], [0.0, 0.0]], dtype=jnp.complex64)
psi0 = jnp.array([1.0, 0.0], dtype=jnp.complex64)
tsave = tuple(float(t) for t in jnp.linspace(0.0, 1.0, 11).tolist())
keys = jax.random.split(jax.random.PRNGKey(0), 4)

jitted_dssesolve = jax.jit(dssesolve, static_argnames=("tsave",))
calls = 0
try:
    for _ in range(2):
        jitted_dssesolve(H, [L], psi0, tsave, keys, method=EulerMaruyama())
        calls += 1
    _report({"jit(dssesolve)"}, calls)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
