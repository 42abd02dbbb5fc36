# source: https://github.com/JeyuChou/clm-ml-jax/commit/e1a9cbbf5296e8d41a9903a1ae40f36f00efc46e
# expect: jit-in-loop-or-body at line 88
# runtime: COMPILES 4 CALLS 4
# why: _obu_fixed_iter runs eagerly and builds a new closure body (over a dict of per-sub-step Python floats) on every call, so lax.fori_loop compiles a fresh jit(scan) for every patch and sub-step.

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
from typing import NamedTuple

import jax
import jax.numpy as jnp

vkc = 0.4  # von Karman constant


def _ObuFuncPure_jax(
    obu_val,
    *,
    Lc_p: float,
    ztop_p: float,
    lai_p: float,
    sai_p: float,
    zref_p: float,
    uref_p: float,
    thref_p: float,
    thvref_p: float,
    qref_p: float,
    rhomol_p: float,
    taf_p: float,
    qaf_p: float,
):
    # scaffolding: a short stand-in for the roughness-sublayer Obukhov residual
    obu_cur = jnp.where(obu_val >= 0.0, jnp.maximum(obu_val, 0.1), jnp.minimum(obu_val, -0.1))
    zdisp_val = 0.67 * ztop_p
    zeta = (zref_p - zdisp_val) / obu_cur
    psim = jnp.where(zeta < 0.0, 0.6 * jnp.log1p(-zeta), -5.0 * jnp.minimum(zeta, 1.0))
    zlog = jnp.log((zref_p - zdisp_val) / (0.13 * ztop_p))
    ustar_val = uref_p * vkc / (zlog + psim)
    tstar = (thref_p - taf_p) * vkc / (zlog + psim)
    qstar = (qref_p - qaf_p) * vkc / (zlog + psim)
    tvstar = tstar + 0.61 * thref_p * qstar
    obu_new = ustar_val**2 * thvref_p / (vkc * 9.80616 * jnp.where(jnp.abs(tvstar) < 1e-10, 1e-10, tvstar))
    return obu_new - obu_val


def _obu_fixed_iter(init_obu, kwargs, n_iter: int = 25):
    """
    Fixed-iteration Obukhov-length solver via ``jax.lax.fori_loop``.
    """
    obu0 = init_obu
    obu1 = jnp.asarray(-100.0)

    f0 = _ObuFuncPure_jax(obu0, **kwargs)
    f1 = _ObuFuncPure_jax(obu1, **kwargs)

    def body(i, carry):
        x0, x1, f0, f1 = carry
        # sign * max(|df|, eps) avoids select-as-denominator → no select_divide_fusion
        _df          = f1 - f0
        _df_abs_safe = jnp.maximum(jnp.abs(_df), jnp.asarray(1e-30))
        _df_sign     = jnp.where(_df < 0.0, jnp.asarray(-1.0), jnp.asarray(1.0))
        dx    = -f1 * (x1 - x0) * _df_sign / _df_abs_safe
        x_new = x1 + dx
        f_new = _ObuFuncPure_jax(x_new, **kwargs)
        return (x1, x_new, f1, f_new)

    _, obu_final, _, _ = jax.lax.fori_loop(0, n_iter, body, (obu0, obu1, f0, f1))
    return obu_final


class mlcanopy_type(NamedTuple):  # scaffolding: trimmed to the fields read by _GetObu
    Lc_canopy: jax.Array
    ztop_canopy: jax.Array
    lai_canopy: jax.Array
    sai_canopy: jax.Array
    zref_forcing: jax.Array
    uref_forcing: jax.Array
    thref_forcing: jax.Array
    thvref_forcing: jax.Array
    qref_forcing: jax.Array
    rhomol_forcing: jax.Array
    taf_canopy: jax.Array
    qaf_canopy: jax.Array


def _GetObu(p: int, mlcanopy_inst: mlcanopy_type) -> float:  # (non-diff fast path; write-back trimmed)
    # Original fast path — pre-extract scalars for speed
    _kwargs = dict(
        Lc_p      = float(mlcanopy_inst.Lc_canopy[p]),
        ztop_p    = float(mlcanopy_inst.ztop_canopy[p]),
        lai_p     = float(mlcanopy_inst.lai_canopy[p]),
        sai_p     = float(mlcanopy_inst.sai_canopy[p]),
        zref_p    = float(mlcanopy_inst.zref_forcing[p]),
        uref_p    = float(mlcanopy_inst.uref_forcing[p]),
        thref_p   = float(mlcanopy_inst.thref_forcing[p]),
        thvref_p  = float(mlcanopy_inst.thvref_forcing[p]),
        qref_p    = float(mlcanopy_inst.qref_forcing[p]),
        rhomol_p  = float(mlcanopy_inst.rhomol_forcing[p]),
        taf_p     = float(mlcanopy_inst.taf_canopy[p]),
        qaf_p     = float(mlcanopy_inst.qaf_canopy[p]),
    )
    obu_converged = float(_obu_fixed_iter(jnp.asarray(100.0), _kwargs, n_iter=25))
    return obu_converged


def forcing_at(substep):  # scaffolding: one patch, forcing drifting over the sub-steps
    a = lambda v: jnp.array([v])
    return mlcanopy_type(
        Lc_canopy=a(2.5), ztop_canopy=a(20.0), lai_canopy=a(4.0), sai_canopy=a(0.5),
        zref_forcing=a(30.0), uref_forcing=a(3.0 + 0.1 * substep), thref_forcing=a(298.0 - 0.2 * substep),
        thvref_forcing=a(299.0 - 0.2 * substep), qref_forcing=a(0.010), rhomol_forcing=a(41.0),
        taf_canopy=a(299.0), qaf_canopy=a(0.011),
    )


for substep in range(4):  # scaffolding: 4 of the 30 CLM sub-steps
    _GetObu(0, forcing_at(substep))
_report({"jit(scan)", "jit(while)", "jit(fori_loop)"}, 4)
