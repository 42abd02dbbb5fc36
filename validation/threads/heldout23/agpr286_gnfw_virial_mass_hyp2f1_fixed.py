# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/286
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the PR the backend is picked from the traced virial mass and the normalisation uses the closed-form jax.scipy hyp2f1 with xp.where for the overdensity, so the jitted halo term compiles once.
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


import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class Planck15:  # scaffolding: autogalaxy cosmology stand-in with fixed values at z_lens=0.5, z_src=1.0
    def critical_density(self, z, xp=np):  # scaffolding
        return 226.0  # Msun / kpc^3, scaffolding

    def critical_surface_density_between_redshifts_solar_mass_per_kpc2_from(self, redshift_0, redshift_1, xp=np):  # scaffolding
        return 3.0e9  # Msun / kpc^2, scaffolding

    def kpc_per_arcsec_from(self, redshift, xp=np):  # scaffolding
        return 6.2  # scaffolding

    def Om(self, z, xp=np):  # scaffolding
        return 0.55  # scaffolding


# autogalaxy/profiles/mass/dark/gnfw_virial_mass_conc.py
def is_jax(x):
    try:
        import jax
        from jax import Array
        from jax.core import Tracer
        return isinstance(x, (Array, Tracer))
    except Exception:
        return False

def kappa_s_and_scale_radius(
    cosmology,
    virial_mass,
    c_2,
    overdens,
    redshift_object,
    redshift_source,
    inner_slope,
):
    """Characteristic convergence and scale radius of a gNFW halo (docstring shortened)."""
    is_jax_bool = is_jax(virial_mass)

    if not is_jax_bool:
        xp = np
    else:
        from jax import numpy as jnp
        xp = jnp

    if xp is np:
        from scipy.special import hyp2f1
    else:
        try:
            from jax.scipy.special import hyp2f1  # noqa: F401
        except Exception as e:
            raise RuntimeError(
                "This feature requires jax.scipy.special.hyp2f1, which is available in "
                "JAX >= 0.6.1. Please upgrade `jax` and `jaxlib`."
            ) from e

    gamma = inner_slope
    concentration = (2.0 - gamma) * c_2  # gNFW concentration (your definition)

    critical_density = cosmology.critical_density(redshift_object, xp=xp)  # Msun / kpc^3

    critical_surface_density = cosmology.critical_surface_density_between_redshifts_solar_mass_per_kpc2_from(
        redshift_0=redshift_object,
        redshift_1=redshift_source,
        xp=xp,
    )  # Msun / kpc^2

    kpc_per_arcsec = cosmology.kpc_per_arcsec_from(redshift=redshift_object, xp=xp)  # kpc / arcsec

    # Bryan & Norman (1998) overdensity if overdens == 0
    x = cosmology.Om(redshift_object, xp=xp) - 1.0
    overdens_bn98 = 18.0 * xp.pi**2 + 82.0 * x - 39.0 * x**2
    overdens = xp.where(overdens == 0, overdens_bn98, overdens)

    # r_vir in kpc
    virial_radius = (virial_mass / (overdens * critical_density * (4.0 * xp.pi / 3.0))) ** (1.0 / 3.0)

    # scale radius in kpc
    scale_radius_kpc = virial_radius / concentration

    # c = rvir/rs is exactly "concentration" by definition
    c = concentration

    # Analytic normalization
    a = 3.0 - gamma
    de_c = (overdens / 3.0) * a * (c**gamma) / hyp2f1(a, a, a + 1.0, -c)

    rho_s = critical_density * de_c  # Msun / kpc^3
    kappa_s = rho_s * scale_radius_kpc / critical_surface_density  # dimensionless
    scale_radius = scale_radius_kpc / kpc_per_arcsec  # arcsec

    return kappa_s, scale_radius, virial_radius, overdens


cosmology = Planck15()  # scaffolding


@jax.jit  # scaffolding: a jitted likelihood with the halo's log10 virial mass free, as gNFWVirialMassConcSph does
def halo_kappa_s(log10m_vir):  # scaffolding
    kappa_s, scale_radius, virial_radius, overdens = kappa_s_and_scale_radius(  # scaffolding
        cosmology=cosmology, virial_mass=10.0**log10m_vir, c_2=10.0, overdens=0.0,  # scaffolding
        redshift_object=0.5, redshift_source=1.0, inner_slope=1.0)  # scaffolding
    return kappa_s  # scaffolding


try:  # scaffolding
    for log10m in (11.5, 12.0, 12.5):  # scaffolding
        halo_kappa_s(jnp.asarray(log10m))  # scaffolding
    _report({"jit(halo_kappa_s)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
