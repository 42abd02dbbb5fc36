# source: https://github.com/JeyuChou/clm-ml-jax/commit/9269ebb6cc3ed5dbfd646769199b784f476671c5
# expect: stale-closure at line 77
# runtime: COMPILES 1 CALLS 3
# why: The jitted CanopyNitrogenProfile reads the module-global MLpftcon.vcmaxpft, so the finite-difference check that swaps the global (_set_pftcon) reuses the first trace: f(1+eps) == f(1-eps) and the FD gradient is exactly 0.

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
import sys
from functools import partial
from typing import NamedTuple, Sequence

import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)  # scaffolding: the diags run in float64


class MLpftcon_type(NamedTuple):  # trimmed to the two fields read here
    vcmaxpft:         jax.Array   # (mxpft+1,)
    clump_fac:        jax.Array   # (mxpft+1,)


MLpftcon = MLpftcon_type(  # scaffolding: three PFTs
    vcmaxpft=jnp.array([0.0, 57.7, 61.4]),
    clump_fac=jnp.array([1.0, 0.85, 0.7]),
)


class mlcanopy_type(NamedTuple):  # scaffolding: trimmed
    itype: jax.Array
    lai_canopy: jax.Array
    dpai_profile: jax.Array
    vcmax25_profile: jax.Array


kn_val = -999.0  # MLclm_varctl
nlevmlcan = 8  # MLclm_varpar (100 in the model)


@partial(jax.jit, static_argnums=(0, 1))
def CanopyNitrogenProfile(
    num_filter: int,
    filter_patch: Sequence[int],
    mlcanopy_inst: mlcanopy_type,
) -> mlcanopy_type:
    """
    Calculate the canopy profile of nitrogen and photosynthetic capacity.
    """  # (C3/C4, acclimation, sun/shade split and write-backs trimmed)
    vcmax25_profile = mlcanopy_inst.vcmax25_profile

    for fp in range(num_filter):                   # Fortran: do fp = 1, num_filter
        p   = filter_patch[fp]
        pft = mlcanopy_inst.itype[p]               # JAX int — dynamic index

        # Canopy-top photosynthetic parameters — Fortran lines 80-96
        vcmax25top = MLpftcon.vcmaxpft[pft]        # JAX scalar via dynamic gather

        # Nitrogen decay coefficient — Fortran lines 102-108
        # kn_val is a static Python float; the if/elif branches are trace-time only
        if kn_val < 0.0:
            kn = jnp.exp(0.00963 * vcmax25top - 2.43)
        else:
            kn = jnp.asarray(kn_val)

        _dpai = mlcanopy_inst.dpai_profile[p]
        pai_above_v = jnp.concatenate([jnp.zeros(1), jnp.cumsum(_dpai[:-1])])
        # Integrated nitrogen factor — Fortran line 130
        exp_kn_above = jnp.exp(-kn * pai_above_v)
        fn = exp_kn_above * (1.0 - jnp.exp(-kn * _dpai)) / kn
        vcmax25_profile_v = vcmax25top * fn / jnp.maximum(_dpai, 1.0e-30)
        vcmax25_profile = vcmax25_profile.at[p].set(vcmax25_profile_v)

    return mlcanopy_inst._replace(
        vcmax25_profile = vcmax25_profile,
    )


def MLCanopyFluxes(mlcanopy_inst):  # scaffolding: the model step that calls CanopyNitrogenProfile
    return CanopyNitrogenProfile(2, (0, 1), mlcanopy_inst)


def compute_gpp(inst):  # scaffolding: GPP proxy
    return jnp.sum(inst.vcmax25_profile * inst.dpai_profile)


mlcanopy_inst = mlcanopy_type(  # scaffolding: two patches
    itype=jnp.array([1, 2]),
    lai_canopy=jnp.array([4.0, 3.0]),
    dpai_profile=jnp.full((2, nlevmlcan), 0.5),
    vcmax25_profile=jnp.zeros((2, nlevmlcan)),
)

# ── MLpftcon module injection helpers (diags/fd_grad_check.py) ────────────────
_NitroMod = sys.modules[__name__]  # scaffolding: this file plays MLCanopyNitrogenProfileMod
_orig_pftcon = _NitroMod.MLpftcon   # original MLpftcon_type instance


def _set_pftcon(new_inst):
    """Replace MLpftcon in all relevant module namespaces."""
    _NitroMod.MLpftcon    = new_inst


def _restore_pftcon():
    """Restore MLpftcon to original in all relevant module namespaces."""
    _NitroMod.MLpftcon    = _orig_pftcon


def forward_gpp_vcmaxpft(alpha: jnp.ndarray) -> jnp.ndarray:
    _set_pftcon(_orig_pftcon._replace(vcmaxpft=alpha * _orig_pftcon.vcmaxpft))
    inst = MLCanopyFluxes(
        mlcanopy_inst=mlcanopy_inst,
    )
    _restore_pftcon()
    return compute_gpp(inst)


baseline_gpp = float(compute_gpp(MLCanopyFluxes(mlcanopy_inst)))  # the baseline run traces with the original pftcon
EPS = 1e-4
f_plus  = float(forward_gpp_vcmaxpft(jnp.float64(1.0 + EPS)))
f_minus = float(forward_gpp_vcmaxpft(jnp.float64(1.0 - EPS)))
grad_vcmax_fd = (f_plus - f_minus) / (2 * EPS)
print("OUTPUTS", [f_plus, f_minus, grad_vcmax_fd])  # scaffolding: FD gradient should be non-zero
_report({"jit(CanopyNitrogenProfile)"}, 3)
