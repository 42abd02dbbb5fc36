# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/527
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the PR the backend is inferred from the values (_xp_from), so the traced ellipticity goes through jnp.sqrt and the jitted term compiles once.
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


from typing import Tuple
import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class convert:  # scaffolding: autogalaxy.convert.ell_comps_from, verbatim (docstring cut)
    @staticmethod
    def ell_comps_from(axis_ratio: float, angle: float, xp=np) -> Tuple[float, float]:
        angle *= xp.pi / 180.0
        fac = (1 - axis_ratio) / (1 + axis_ratio)
        ellip_y = fac * xp.sin(2 * angle)
        ellip_x = fac * xp.cos(2 * angle)
        return (ellip_y, ellip_x)


class LensingCosmology:  # scaffolding
    pass


class FlatLambdaCDM(LensingCosmology):  # scaffolding: simple Hubble-law distances, NumPy path
    def __init__(self, H0=67.66, Om0=0.30966):
        self.H0, self.Om0 = H0, Om0

    def angular_diameter_distance_to_earth_in_kpc_from(self, redshift, xp=np):
        return 299792.458 / self.H0 * redshift / (1.0 + redshift) * 1e3

    def angular_diameter_distance_between_redshifts_in_kpc_from(self, redshift_0, redshift_1, xp=np):
        return 299792.458 / self.H0 * (redshift_1 - redshift_0) / (1.0 + redshift_1) * 1e3


class dPIEMassB0:  # scaffolding: the parent constructor only stores its arguments
    def __init__(self, centre=(0.0, 0.0), ell_comps=(0.0, 0.0), ra=0.1, rs=2.0, b0=1.0):
        self.centre, self.ell_comps, self.ra, self.rs, self.b0 = centre, ell_comps, ra, rs, b0




def _b0_from_lenstool_sigma(
    sigma: float,
    redshift_object: float,
    redshift_source: float,
    cosmology: LensingCosmology,
) -> float:
    """Convert Lenstool's v_disp to the dPIE b0 in arcsec (docstring shortened)."""
    c_km_s = 299792.458

    d_s = cosmology.angular_diameter_distance_to_earth_in_kpc_from(
        redshift=redshift_source
    )
    d_ls = cosmology.angular_diameter_distance_between_redshifts_in_kpc_from(
        redshift_0=redshift_object, redshift_1=redshift_source
    )

    return 6.0 * 648000.0 * (sigma / c_km_s) ** 2 * (d_ls / d_s)


def _xp_from(*values):
    """
    numpy, unless any input is a JAX array/tracer — constructor arguments carry no
    ``xp`` threading, so when a free parameter arrives traced (model-fitting under
    ``jax.jit``) the backend must be inferred from the values themselves.
    """
    try:
        from jax import Array
        from jax.core import Tracer
    except Exception:
        return np

    if any(isinstance(value, (Array, Tracer)) for value in values):
        import jax.numpy as jnp

        return jnp

    return np


class dPIEMass(dPIEMassB0):
    def __init__(
        self,
        centre: Tuple[float, float] = (0.0, 0.0),
        ellipticity: float = 0.0,
        angle_pos: float = 0.0,
        sigma: float = 200.0,
        r_core: float = 0.1,
        r_cut: float = 20.0,
        redshift_object: float = 0.5,
        redshift_source: float = 1.0,
        H0: float = 67.66,
        Om0: float = 0.30966,
    ):
        # from autogalaxy.cosmology.model import FlatLambdaCDM  (scaffolding: stand-in below)

        # H0 / Om0 are plain floats (Planck15 values by default) so the profile is
        # fully constructable from flat inputs — CSV rows, prior configs — while a
        # Lenstool run's own cosmology (typically H0=70, Om0=0.3) can be matched
        # exactly. They are model *constants* in practice; the priors config carries
        # them only so af.Model composition works.
        cosmology = FlatLambdaCDM(H0=H0, Om0=Om0)

        xp = _xp_from(ellipticity, angle_pos)
        axis_ratio = xp.sqrt((1.0 - ellipticity) / (1.0 + ellipticity))
        ell_comps = convert.ell_comps_from(axis_ratio=axis_ratio, angle=angle_pos, xp=xp)

        b0 = _b0_from_lenstool_sigma(
            sigma=sigma,
            redshift_object=redshift_object,
            redshift_source=redshift_source,
            cosmology=cosmology,
        )

        super().__init__(
            centre=centre,
            ell_comps=ell_comps,
            ra=r_core,
            rs=r_cut,
            b0=b0,
        )

        self.ellipticity = ellipticity
        self.angle_pos = angle_pos
        self.sigma = sigma
        self.r_core = r_core
        self.r_cut = r_cut
        self.redshift_object = redshift_object
        self.redshift_source = redshift_source
        self.H0 = H0
        self.Om0 = Om0


@jax.jit  # scaffolding: a jitted model-fit term, ellipticity and angle_pos are free parameters
def lens_strength(ellipticity, angle_pos):  # scaffolding
    mass = dPIEMass(ellipticity=ellipticity, angle_pos=angle_pos)  # scaffolding
    return mass.b0 * (1.0 + mass.ell_comps[0] ** 2 + mass.ell_comps[1] ** 2)  # scaffolding


try:  # scaffolding
    for e, a in ((0.1, 30.0), (0.2, 45.0), (0.3, 60.0)):  # scaffolding
        lens_strength(jnp.asarray(e), jnp.asarray(a))  # scaffolding
    _report({"jit(lens_strength)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
