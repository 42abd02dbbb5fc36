# source: https://github.com/imewei/rheojax/commit/e8000dcd555dd9461c9dfc473e209daad0628214
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: _solve_trajectory is jitted with vector_field and max_steps static, and functools.cache makes make_equilibrium_correlator_vector_field return the same closure for the same n_modes, so the three solves share one compile (diffeqsolve inlined).
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



"""rheojax/models/itt_mct/_kernels_diffrax.py (excerpt)"""

import functools
from collections.abc import Callable
from typing import NamedTuple

# from rheojax.core.jax_config import lazy_import, safe_import_jax  # scaffolding: package helpers; plain imports below
import diffrax  # scaffolding: stands for lazy_import("diffrax")
import jax  # scaffolding: stands for safe_import_jax()
import jax.numpy as jnp  # scaffolding: stands for safe_import_jax()
# from rheojax.logging import get_logger  # scaffolding
# from rheojax.models.itt_mct._kernels import f12_equilibrium_correlator_rhs  # scaffolding: inlined below
jax.config.update("jax_enable_x64", True)  # scaffolding: rheojax's safe_import_jax enables float64

# ---- rheojax/models/itt_mct/_kernels.py ----
def f12_equilibrium_correlator_rhs(
    state: jnp.ndarray,
    t: float,
    v1: float,
    v2: float,
    Gamma: float,
    g: jnp.ndarray,
    tau: jnp.ndarray,
    n_modes: int,
) -> jnp.ndarray:
    """ODE for equilibrium (quiescent) correlator Φ_eq(t).

    State: [Φ, K₁, ..., K_n]

    No strain decorrelation - pure relaxation dynamics.
    """
    phi = state[0]
    K = state[1 : 1 + n_modes]

    # Memory integral: g, tau are Prony-fit to the m(t) time series itself
    # (prony_decompose_memory), so the standard/fixed-kernel Prony form
    # applies (no extra m(Φ) factor — see module docstring). v1, v2 are kept
    # in the signature for call-site/API compatibility with the other
    # Volterra RHS functions.
    memory_integral = jnp.sum(K)

    # Correlator decay
    dphi_dt = -Gamma * (phi + memory_integral)

    # Prony modes
    dK_dt = -K / tau + g * dphi_dt

    return jnp.concatenate([jnp.array([dphi_dt]), dK_dt])



# ---- rheojax/models/itt_mct/_kernels_diffrax.py ----
@functools.partial(jax.jit, static_argnums=(0, 6))
def _solve_trajectory(
    vector_field: Callable,
    state0: jnp.ndarray,
    params: NamedTuple,
    t_array: jnp.ndarray,
    rtol: float,
    atol: float,
    max_steps: int,
) -> tuple[jnp.ndarray, jnp.ndarray]:
    """Shared diffrax trajectory-solve helper for SaveAt(ts=...) sites.

    Used by every ITT-MCT protocol except flow curve (which vmaps over
    many shear rates and only needs the final state, SaveAt(t1=True)).
    These sites solve one condition per call and need the full
    trajectory at the caller's t_eval array.

    JIT-compiled with `vector_field` and `max_steps` static: repeat
    calls with the same vector-field closure (see the `make_*_vector_field`
    factories' `lru_cache`, which keeps closure identity stable across
    calls) and the same t_array shape reuse the compiled trace instead
    of retracing every call.

    Returns
    -------
    ys : jnp.ndarray, shape (len(t_array), state_dim)
        Full state trajectory at the requested times.
    failed : jnp.ndarray (scalar bool)
        True if the solver did not report success, or the output
        contains NaN. Callers use this to trigger a whole-call scipy
        fallback (see the migration spec's "Fallback strategy" section).
    """
    t_array = jnp.asarray(t_array)
    term = diffrax.ODETerm(vector_field)
    solver = diffrax.Tsit5()
    stepsize_controller = diffrax.PIDController(rtol=rtol, atol=atol)

    solution = diffrax.diffeqsolve(
        term,
        solver,
        t0=0.0,
        t1=jnp.max(t_array),
        dt0=0.01,
        y0=state0,
        args=params,
        stepsize_controller=stepsize_controller,
        saveat=diffrax.SaveAt(ts=t_array),
        max_steps=max_steps,
        throw=False,
    )

    solver_ok = solution.result == diffrax.RESULTS.successful
    has_nan = jnp.any(jnp.isnan(solution.ys))
    failed = (~solver_ok) | has_nan

    return solution.ys, failed


class EquilibriumCorrelatorParams(NamedTuple):
    """Parameters for the equilibrium (quiescent) correlator ODE."""

    v1: float
    v2: float
    Gamma: float
    g: jnp.ndarray
    tau: jnp.ndarray


@functools.cache
def make_equilibrium_correlator_vector_field(n_modes: int) -> Callable:
    """Create diffrax-compatible vector field for the equilibrium correlator.

    Reuses f12_equilibrium_correlator_rhs unchanged — only the argument
    order changes, from scipy's (state, t, *args) to diffrax's
    (t, state, args).
    """

    def vector_field(
        t: float, state: jnp.ndarray, args: EquilibriumCorrelatorParams
    ) -> jnp.ndarray:
        return f12_equilibrium_correlator_rhs(
            state, t, args.v1, args.v2, args.Gamma, args.g, args.tau, n_modes
        )

    return vector_field


def solve_equilibrium_correlator_trajectory(
    t_array: jnp.ndarray,
    v1: float,
    v2: float,
    Gamma: float,
    g: jnp.ndarray,
    tau: jnp.ndarray,
    n_modes: int,
    rtol: float = 1e-8,
    atol: float = 1e-10,
    max_steps: int = 65536,
) -> jnp.ndarray:
    """Solve the equilibrium correlator Phi_eq(t) using diffrax.

    Returns Phi_eq at t_array, clipped to [0, 1]. Returns an all-NaN
    array (same shape as t_array) if the solve fails — callers retry
    the whole call via the scipy path in that case.
    """
    vector_field = make_equilibrium_correlator_vector_field(n_modes)
    params = EquilibriumCorrelatorParams(v1=v1, v2=v2, Gamma=Gamma, g=g, tau=tau)

    state0 = jnp.zeros(1 + n_modes)
    state0 = state0.at[0].set(1.0)  # Phi(0) = 1

    ys, failed = _solve_trajectory(
        vector_field, state0, params, jnp.asarray(t_array), rtol, atol, max_steps
    )

    phi = jnp.clip(ys[:, 0], 0.0, 1.0)
    return jnp.where(failed, jnp.nan, phi)


# scaffolding: the ITT-MCT model computes the equilibrium correlator once per fit evaluation; here
# three calls with different mode weights (same n_modes and time grid), as an optimizer would make
t_eval = jnp.logspace(-3, 2, 50)  # scaffolding
tau = jnp.array([0.1, 1.0, 10.0])  # scaffolding
try:  # scaffolding
    for scale in (1.0, 0.8, 0.6):  # scaffolding
        phi = solve_equilibrium_correlator_trajectory(t_eval, 2.0, 3.9, 1.0, scale * jnp.array([0.3, 0.2, 0.1]), tau, 3)  # scaffolding
        print("Phi_eq(t_end) =", float(phi[-1]))  # scaffolding
    _report({"jit(diffeqsolve)", "jit(_solve_trajectory)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
