# source: https://github.com/dynamiqs/dynamiqs/commit/c2f9a18a5f244f24cd88f3a66c815cb3c27af8ce
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's fix: options is an Options eqx.Module (hashable, frozen fields) passed directly, so it works as a static argument and three solves with new Hamiltonians share one compile.

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
from typing import Any

import equinox as eqx
import jax
import jax.scipy.linalg
from jax import numpy as jnp


class Options(eqx.Module):
    save_states: bool
    verbose: bool
    _double_precision: bool
    cartesian_batching: bool

    def __init__(
        self,
        *,
        save_states: bool = True,
        verbose: bool = True,
        dtype: jnp.complex64 | jnp.complex128 | None = None,
        cartesian_batching: bool = True,
    ):
        self.save_states = save_states
        self.verbose = verbose
        cdtype = jnp.complex64 if dtype is None else dtype  # scaffolding: get_cdtype
        self._double_precision = cdtype == jnp.complex128
        self.cartesian_batching = cartesian_batching

    @property
    def rdtype(self) -> jnp.float32 | jnp.float64:
        return jnp.float64 if self._double_precision else jnp.float32

    @property
    def cdtype(self) -> jnp.complex64 | jnp.complex128:
        return jnp.complex128 if self._double_precision else jnp.complex64


class Dopri5(eqx.Module):  # scaffolding: dynamiqs.solver.Dopri5 (no fields)
    pass


def _propagate(H, y0, ts, Es, options):  # scaffolding: exact propagation instead of the SEDopri5 solver
    states = jax.vmap(lambda t: jax.scipy.linalg.expm(-1j * t * H) @ y0)(ts)
    expects = None if Es is None else jnp.einsum('ti,eij,tj->et', states.conj(), Es, states)
    return (states if options.save_states else states[-1]), expects


@partial(jax.jit, static_argnames=('solver', 'gradient', 'options'))
def sesolve(
    H,
    psi0,
    tsave,
    *,
    exp_ops=None,
    solver=Dopri5(),
    gradient=None,
    options: Options = Options(),
):
    # === convert arguments

    H = jnp.asarray(H, dtype=options.cdtype)  # scaffolding: _astimearray
    y0 = jnp.asarray(psi0, dtype=options.cdtype)
    ts = jnp.asarray(tsave, dtype=options.rdtype)
    Es = jnp.asarray(exp_ops, dtype=options.cdtype) if exp_ops is not None else None

    # === run solver
    return _propagate(H, y0, ts, Es, options)  # scaffolding: solver selection and run


# scaffolding: a driven qubit, only the final state kept, for three drive strengths
sx = jnp.array([[0, 1], [1, 0]])
sz = jnp.array([[1, 0], [0, -1]])
psi0 = jnp.array([1, 0])
tsave = jnp.linspace(0.0, 1.0, 11)
calls = 0
try:
    for omega in (0.5, 1.0, 2.0):
        result = sesolve(omega * sx + 0.1 * sz, psi0, tsave, exp_ops=jnp.stack([sz]), options=Options(save_states=False))
        calls += 1
    _report({"jit(sesolve)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
