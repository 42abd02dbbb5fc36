# source: https://github.com/kokabsc/gwkokab/commit/4f004549adf97bab994681bb63c3966a902ebe0c
# expect: trace-time-error at line 136
# runtime: ERROR UnexpectedTracerError
# why: default_cosmology is lru_cached, so the Cosmology it first builds inside the jitted sample keeps that trace's tracers, and the next trace (a new sample shape) reads them and raises UnexpectedTracerError.

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


import functools
import os
from types import MappingProxyType
from typing import Final, Optional

import equinox as eqx
import jax
import jax.numpy as jnp
from jax import Array, lax, random as jrd
from jax.scipy.integrate import trapezoid
from jaxtyping import ArrayLike
from numpyro.distributions import constraints, Distribution

SPEED_OF_LIGHT = 299792458.0  # gwkokab.constants


class quadax:  # scaffolding: quadax is not installed
    @staticmethod
    def cumulative_trapezoid(y, x, initial=0.0, axis=0):
        dx = jnp.diff(x)
        return jnp.concatenate([jnp.array([initial]), jnp.cumsum(0.5 * dx * (y[1:] + y[:-1]))])


# src/gwkokab/cosmology/_cosmology.py (the parts used here)
class Cosmology(eqx.Module):
    """Flat ΛCDM cosmology with Mpc-based units for distances and comoving volumes."""

    Ho: ArrayLike
    OmegaKappa: ArrayLike
    OmegaLambda: ArrayLike
    OmegaMatter: ArrayLike
    OmegaRadiation: ArrayLike
    _z: ArrayLike
    _Dc: ArrayLike
    Vc: ArrayLike

    def __init__(
        self,
        Ho: ArrayLike,
        omega_matter: ArrayLike,
        omega_radiation: ArrayLike,
        omega_lambda: ArrayLike,
        max_z: float = 4.0,
        dz: float = 1e-3,
    ) -> None:
        self.Ho = Ho  # Hubble constant in m/s/Mpc
        self.OmegaMatter = omega_matter
        self.OmegaRadiation = omega_radiation
        self.OmegaLambda = omega_lambda
        self.OmegaKappa = 1.0 - (
            self.OmegaMatter + self.OmegaRadiation + self.OmegaLambda
        )

        self._z = jnp.arange(0.0, max_z + dz, dz)
        self._Dc = quadax.cumulative_trapezoid(
            self.dDcdz(self._z), x=self._z, initial=0.0, axis=0
        )
        self.Vc = quadax.cumulative_trapezoid(
            self.dVcdz(self._z, self._Dc), x=self._z, initial=0.0, axis=0
        )

    # --------- Core functions ---------
    def z_to_E(self, z: ArrayLike) -> ArrayLike:
        zp1 = 1.0 + z
        return jnp.sqrt(
            self.OmegaLambda
            + self.OmegaKappa * zp1**2
            + self.OmegaMatter * zp1**3
            + self.OmegaRadiation * zp1**4
        )

    def dDcdz(self, z: ArrayLike) -> ArrayLike:
        return (SPEED_OF_LIGHT / self.Ho) / self.z_to_E(z)

    def logdVcdz(self, z: ArrayLike, Dc: Optional[ArrayLike] = None) -> ArrayLike:
        if Dc is None:
            Dc = self.z_to_Dc(z)
        return (
            jnp.log(4.0 * jnp.pi)  # Conversion of steradians
            - 9.0 * jnp.log(10.0)  # Conversion from Mpc^3 to Gpc^3
            + 2 * jnp.log(Dc)
            + jnp.log(self.dDcdz(z))
        )

    def dVcdz(self, z: ArrayLike, Dc: Optional[ArrayLike] = None) -> ArrayLike:
        return jnp.exp(self.logdVcdz(z, Dc=Dc))

    # --------- Interpolators ---------
    def z_to_Dc(self, z: ArrayLike) -> ArrayLike:
        """Fast JAX-safe interpolation of comoving distance."""
        return jnp.interp(z, self._z, self._Dc)


# src/gwkokab/cosmology/_planck.py before the commit
def PLANCK_2015_Cosmology() -> Cosmology:
    """Cosmology: See Table 4 in arXiv:1502.01589, OmegaMatter from astropy Planck 2015"""
    h_0 = 67.74 * 1e3
    omega_m = 0.3075
    return Cosmology(h_0, omega_m, 0.0, 1.0 - omega_m)


COSMOLOGY_REGISTRY: Final = MappingProxyType(
    {
        "Planck15": PLANCK_2015_Cosmology,
    }
)


@functools.lru_cache(maxsize=1)
def default_cosmology() -> Cosmology:
    """Returns the default cosmology based on GWKOKAB_DEFAULT_COSMOLOGY.

    Cached for JIT performance.
    """
    name = os.environ.get("GWKOKAB_DEFAULT_COSMOLOGY", "Planck15")

    if name not in COSMOLOGY_REGISTRY:
        raise ValueError(
            f"Invalid or unavailable cosmology: GWKOKAB_DEFAULT_COSMOLOGY={name}. "
            f"Available options: {list(COSMOLOGY_REGISTRY.keys())}"
        )

    return COSMOLOGY_REGISTRY[name]()


# src/gwkokab/models/redshift/_models.py (the sampling path)
class _RedshiftModel(Distribution):
    def __init__(
        self,
        z_max: Array,
        batch_shape=(),
        *,
        validate_args: Optional[bool] = None,
    ):
        self.z_max = z_max
        batch_shape = lax.broadcast_shapes(jnp.shape(z_max), batch_shape)
        self._support = constraints.interval(0.0, z_max)
        super(_RedshiftModel, self).__init__(
            batch_shape=batch_shape,
            validate_args=validate_args,
        )

    def log_differential_spacetime_volume(self, z: Array) -> Array:
        """Placeholder method for computing the differential spacetime volume."""
        logdVcdz = default_cosmology().logdVcdz(z)
        log_time_dilation = -jnp.log1p(z)
        log_differential_spacetime_volume_val = (
            log_time_dilation + logdVcdz + self.log_psi_of_z(z)
        )
        return log_differential_spacetime_volume_val

    def sample(self, key, sample_shape=()):
        u = jrd.uniform(key, shape=sample_shape + self.batch_shape)
        z_grid = jnp.linspace(0.0, self.z_max, 10_000)
        pdfgrid = jnp.exp(self.log_differential_spacetime_volume(z_grid))
        norm = trapezoid(pdfgrid, z_grid)
        pdfgrid /= norm
        cdfgrid: Array = quadax.cumulative_trapezoid(pdfgrid, x=z_grid, initial=0.0)
        cdfgrid = cdfgrid / cdfgrid[-1]
        return jnp.interp(u, cdfgrid, z_grid)


class PowerlawRedshift(_RedshiftModel):  # scaffolding: a concrete model, psi(z) = (1+z)^kappa
    def __init__(self, kappa, z_max):
        self.kappa = kappa
        super().__init__(z_max)

    def log_psi_of_z(self, z):
        return self.kappa * jnp.log1p(z)


# scaffolding: sample two batches through a jitted sample, as the population sampler does
model = PowerlawRedshift(kappa=2.7, z_max=2.3)
sample = eqx.filter_jit(model.sample)
calls = 0
try:  # scaffolding
    for n in (1000, 2000):
        z = sample(jrd.PRNGKey(n), (n,))
        calls += 1
    _report({"jit(sample)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
