# source: https://github.com/dynamiqs/dynamiqs/pull/532
# expect: trace-time-error at line 46
# runtime: ERROR TracerBoolConversionError
# why: check_times validates tsave with 'if not jnp.all(jnp.diff(x) > 0): raise', a Python branch on an array; when the user jits mesolve, tsave is a tracer and the branch raises instead of checking.

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
import equinox as eqx
import jax
import jax.numpy as jnp
from jax import Array


# dynamiqs/_checks.py before PR #532
def check_times(x: Array, argname: str, allow_empty: bool = False):
    # check that an array of time is valid (it must be a 1D array sorted in strictly
    # ascending order)

    if x.ndim != 1:
        raise ValueError(
            f'Argument {argname} must be a 1D array, but is a {x.ndim}D array.'
        )
    if not allow_empty and len(x) == 0:
        raise ValueError(f'Argument {argname} must contain at least one element.')
    if not jnp.all(jnp.diff(x) > 0):
        raise ValueError(
            f'Argument {argname} must be sorted in strictly ascending order.'
        )


def _mesolve(H, jump_ops, rho0, tsave, exp_ops):
    # scaffolding: a fixed-step Lindblad integrator on the tsave grid, standing in for the solver
    def rhs(rho):
        out = -1j * (H @ rho - rho @ H)
        for L in jump_ops:
            out = out + L @ rho @ L.conj().T - 0.5 * (L.conj().T @ L @ rho + rho @ L.conj().T @ L)
        return out

    def step(rho, dt):
        rho = rho + dt * rhs(rho)
        return rho, jnp.real(jnp.trace(exp_ops[0] @ rho))

    return jax.lax.scan(step, rho0, jnp.diff(tsave))[1]


def mesolve(H, jump_ops, rho0, tsave, *, exp_ops=None):
    # === convert arguments (trimmed)
    tsave = jnp.asarray(tsave)

    # === check arguments
    check_times(tsave, 'tsave')

    return _mesolve(H, jump_ops, rho0, tsave, exp_ops)


# scaffolding: the user jits mesolve and calls it for two drive strengths
L = jnp.sqrt(0.1) * jnp.array([[0.0, 1.0], [0.0, 0.0]], dtype=jnp.complex64)
rho0 = jnp.array([[1.0, 0.0], [0.0, 0.0]], dtype=jnp.complex64)
sz = jnp.array([[1.0, 0.0], [0.0, -1.0]], dtype=jnp.complex64)
tsave = jnp.linspace(0.0, 1.0, 11)
jit_mesolve = jax.jit(mesolve)
calls = 0
try:
    for omega in (1.0, 2.0):
        H = omega * jnp.array([[0.0, 1.0], [1.0, 0.0]], dtype=jnp.complex64)
        jit_mesolve(H, [L], rho0, tsave, exp_ops=[sz])
        calls += 1
    _report({"jit(mesolve)"}, calls)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
