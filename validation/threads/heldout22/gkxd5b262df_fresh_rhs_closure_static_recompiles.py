# source: https://github.com/uwplasma/GKX/commit/d5b262df54dc8ac8d77b3c79ad391ac1b3fdaf6a
# expect: changing-static at line 154
# runtime: COMPILES 4 CALLS 4
# why: integrate_nonlinear_cached defines a new rhs_fn closure on every call and passes it as the static rhs_fn of the jitted integrate_nonlinear_scan, so every run segment recompiles the whole scan.
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
from functools import partial
from typing import Any, Callable

import jax
import jax.numpy as jnp

RhsFn = Callable[[jnp.ndarray], tuple[jnp.ndarray, object]]
ProjectFn = Callable[[jnp.ndarray], jnp.ndarray]


def _rhs_value(rhs_fn: RhsFn, state: jnp.ndarray) -> jnp.ndarray:
    dG, _fields = rhs_fn(state)
    return dG


def _explicit_rk4_state(
    G: jnp.ndarray,
    dG: jnp.ndarray,
    dt_local: jnp.ndarray,
    *,
    rhs_fn: RhsFn,
    project_state: ProjectFn,
) -> jnp.ndarray:
    G2 = project_state(G + 0.5 * dt_local * dG)
    k2 = _rhs_value(rhs_fn, G2)
    G3 = project_state(G + 0.5 * dt_local * k2)
    k3 = _rhs_value(rhs_fn, G3)
    G4 = project_state(G + dt_local * k3)
    k4 = _rhs_value(rhs_fn, G4)
    return G + (dt_local / 6.0) * (dG + 2.0 * k2 + 2.0 * k3 + k4)


def advance_explicit_nonlinear_state(
    G: jnp.ndarray,
    dG: jnp.ndarray,
    dt_local: jnp.ndarray,
    *,
    method: str,
    rhs_fn: RhsFn,
    project_state: ProjectFn,
    state_dtype: jnp.dtype,
) -> jnp.ndarray:
    """Advance one explicit nonlinear step with a static method string."""
    if method == "euler":  # scaffolding: _explicit_stage_update cut to euler and rk4
        G_new = G + dt_local * dG
    else:
        G_new = _explicit_rk4_state(G, dG, dt_local, rhs_fn=rhs_fn, project_state=project_state)
    G_new = project_state(G_new)
    return jnp.asarray(G_new, dtype=state_dtype)


def checkpoint_explicit_step(step: Callable[..., object], checkpoint: bool):
    """Apply JAX checkpointing to an explicit scan step when requested."""
    return jax.checkpoint(step) if checkpoint else step


@partial(
    jax.jit,
    static_argnames=(
        "rhs_fn",
        "steps",
        "method",
        "checkpoint",
        "project_state",
        "show_progress",
        "return_fields",
    ),
)
def integrate_nonlinear_scan(
    rhs_fn: RhsFn,
    G0: jnp.ndarray,
    dt: float,
    steps: int,
    *,
    method: str = "rk4",
    checkpoint: bool = False,
    project_state: ProjectFn | None = None,
    show_progress: bool = False,
    return_fields: bool = True,
) -> tuple[jnp.ndarray, Any] | jnp.ndarray:
    """Integrate a cached nonlinear RHS using the explicit solver scan policy."""
    state_dtype = jnp.result_type(G0, jnp.complex64)
    G0 = jnp.asarray(G0, dtype=state_dtype)
    real_dtype = jnp.real(jnp.empty((), dtype=state_dtype)).dtype
    dt_val = jnp.asarray(dt, dtype=real_dtype)
    projector = project_state if project_state is not None else (lambda G: G)

    def step(G: jnp.ndarray, idx: jnp.ndarray) -> tuple[jnp.ndarray, Any]:
        G = jnp.asarray(projector(G), dtype=state_dtype)  # scaffolding: progress callback left out
        dG, _fields = rhs_fn(G)
        dG = jnp.asarray(dG, dtype=state_dtype)
        G_new = advance_explicit_nonlinear_state(
            G,
            dG,
            dt_val,
            method=method,
            rhs_fn=rhs_fn,
            project_state=projector,
            state_dtype=state_dtype,
        )
        if not return_fields:
            return G_new, None
        _dG_new, fields_new = rhs_fn(G_new)
        return G_new, fields_new

    step_fn = checkpoint_explicit_step(step, checkpoint)
    G_final, fields_t = jax.lax.scan(step_fn, G0, jnp.arange(steps))
    if return_fields:
        return G_final, fields_t
    return G_final


def nonlinear_rhs_cached(G, cache, params, term_cfg, *, compressed_real_fft, laguerre_mode):  # scaffolding: stand-in RHS
    dG = -params["nu"] * cache["k2"] * G + 1j * params["omega"] * G
    return dG, {"phi": jnp.sum(jnp.abs(G) ** 2)}


def integrate_nonlinear_cached(
    G0: jnp.ndarray,
    cache,
    params,
    dt: float,
    steps: int,
    *,
    method: str = "rk4",
    term_cfg=None,
    compressed_real_fft: bool = False,
    laguerre_mode: str = "grid",
):
    def rhs_fn(G):
        return nonlinear_rhs_cached(
            G,
            cache,
            params,
            term_cfg,
            compressed_real_fft=compressed_real_fft,
            laguerre_mode=laguerre_mode,
        )

    project_state = None
    return integrate_nonlinear_scan(  # scaffolding: integrate_cached_explicit_scan forwards to scan_fn
        rhs_fn,
        G0,
        dt,
        steps,
        method=method,
        project_state=project_state,
    )


cache = {"k2": jnp.linspace(0.0, 4.0, 32)}  # scaffolding
G = jnp.ones(32, dtype=jnp.complex64)  # scaffolding
for run in range(4):  # scaffolding: four successive segments of a run (or four parameter points)
    params = {"nu": jnp.float32(0.01 * (run + 1)), "omega": jnp.float32(1.0)}
    G, fields = integrate_nonlinear_cached(G, cache, params, 0.01, 20)
_report({"jit(integrate_nonlinear_scan)"}, 4)  # scaffolding
