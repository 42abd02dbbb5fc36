# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/286
# expect: trace-time-error at line 91
# runtime: ERROR TracerBoolConversionError
# why: kappa_s_and_scale_radius normalises the gNFW halo with scipy.integrate.quad up to the virial radius, which is traced when the virial mass is a free parameter under jax.jit, so quad's Python checks on the bound raise.
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
def kappa_s_and_scale_radius(
    cosmology, virial_mass, c_2, overdens, redshift_object, redshift_source, inner_slope
):
    from scipy.integrate import quad

    concentration = (2.0 - inner_slope) * c_2  # gNFW concentration

    critical_density = cosmology.critical_density(
        redshift_object, xp=np
    )  # Msun / kpc^3

    critical_surface_density = (
        cosmology.critical_surface_density_between_redshifts_solar_mass_per_kpc2_from(
            redshift_0=redshift_object,
            redshift_1=redshift_source,
            xp=np,
        )
    )  # Msun / kpc^2

    kpc_per_arcsec = cosmology.kpc_per_arcsec_from(
        redshift=redshift_object, xp=np
    )  # kpc / arcsec

    if overdens == 0:
        x = cosmology.Om(redshift_object, xp=np) - 1.0
        overdens = 18.0 * np.pi**2 + 82.0 * x - 39.0 * x**2  # Bryan & Norman (1998)

    # r_vir in kpc
    virial_radius = (
        virial_mass / (overdens * critical_density * (4.0 * np.pi / 3.0))
    ) ** (1.0 / 3.0)

    # scale radius in kpc
    scale_radius_kpc = virial_radius / concentration

    # Normalization integral for gNFW
    def integrand(r):
        return (r**2 / r**inner_slope) * (1.0 + r / scale_radius_kpc) ** (
            inner_slope - 3.0
        )

    de_c = (
        (overdens / 3.0)
        * (virial_radius**3 / scale_radius_kpc**inner_slope)
        / quad(integrand, 0.0, virial_radius)[0]
    )

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
