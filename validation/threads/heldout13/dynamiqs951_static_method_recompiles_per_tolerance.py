# source: https://github.com/dynamiqs/dynamiqs/pull/951
# expect: changing-static at line 55
# runtime: COMPILES 4 CALLS 4
# why: _vectorized_mesolve lists method in static_argnames, so the solver options (rtol, atol, ...) are part of the compile key and every new tolerance recompiles the whole solve.

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


# dynamiqs/method.py (excerpt): adaptive-step method options are an eqx.Module
class _DEMethod(eqx.Module):
    pass


class _DEAdaptiveStep(_DEMethod):
    rtol: float = 1e-6
    atol: float = 1e-6
    safety_factor: float = 0.9
    min_factor: float = 0.2
    max_factor: float = 5.0
    max_steps: int = eqx.field(static=True, default=100_000)


class Tsit5(_DEAdaptiveStep):
    pass


# dynamiqs/integrators/apis/mesolve.py
@partial(jax.jit, static_argnames=('method', 'gradient', 'options'))
def _vectorized_mesolve(H, Ls, rho0, tsave, exp_ops, method, gradient, options):
    # scaffolding: a fixed-step Lindblad integrator whose step is set from method.rtol, standing
    # in for the diffrax-based Tsit5 solve
    dt = (tsave[1] - tsave[0]) * jnp.clip(method.rtol * 1e4, 0.05, 1.0)
    n = 20

    def rhs(rho):
        out = -1j * (H @ rho - rho @ H)
        for L in Ls:
            out = out + L @ rho @ L.conj().T - 0.5 * (L.conj().T @ L @ rho + rho @ L.conj().T @ L)
        return out

    def step(rho, _):
        rho = rho + dt * rhs(rho)
        return rho, jnp.real(jnp.trace(exp_ops[0] @ rho))

    return jax.lax.scan(step, rho0, None, length=n)[1]


def mesolve(H, jump_ops, rho0, tsave, *, exp_ops=None, method=Tsit5(), gradient=None, options=None):
    # scaffolding: argument conversion and checks of dq.mesolve trimmed
    return _vectorized_mesolve(H, jump_ops, rho0, jnp.asarray(tsave), exp_ops, method, gradient, options)


# scaffolding: a tolerance convergence sweep on a decaying qubit
H = jnp.array([[0.0, 1.0], [1.0, 0.0]], dtype=jnp.complex64)
L = jnp.sqrt(0.1) * jnp.array([[0.0, 1.0], [0.0, 0.0]], dtype=jnp.complex64)
rho0 = jnp.array([[1.0, 0.0], [0.0, 0.0]], dtype=jnp.complex64)
sz = jnp.array([[1.0, 0.0], [0.0, -1.0]], dtype=jnp.complex64)
tsave = jnp.linspace(0.0, 1.0, 11)
calls = 0
for rtol in (1e-4, 1e-5, 1e-6, 1e-7):
    mesolve(H, [L], rho0, tsave, exp_ops=[sz], method=Tsit5(rtol=rtol, atol=rtol))
    calls += 1
_report({"jit(_vectorized_mesolve)"}, calls)
