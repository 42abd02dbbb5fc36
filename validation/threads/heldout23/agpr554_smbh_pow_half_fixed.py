# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/554
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the PR the Einstein radius is computed with ** 0.5, which traces, so the jitted SMBH potential compiles once.
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
from typing import Tuple
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class Planck15:  # scaffolding: only the critical surface density is needed (solar masses / arcsec^2)
    def critical_surface_density_between_redshifts_from(self, redshift_0, redshift_1):  # scaffolding
        return 3.2e10  # scaffolding


class Grid2DIrregular:  # scaffolding: autoarray grid wrapper, only .array
    def __init__(self, values):  # scaffolding
        self.array = values  # scaffolding


class PointMass:  # autogalaxy/profiles/mass/point/point.py, cut (MassProfile base dropped)
    def __init__(
        self, centre: Tuple[float, float] = (0.0, 0.0), einstein_radius: float = 1.0
    ):
        self.centre = centre  # scaffolding: MassProfile.__init__
        self.einstein_radius = einstein_radius

    def potential_2d_from(self, grid, xp=np, **kwargs):  # decorators to_array/transform dropped
        r = xp.sqrt(grid.array[:, 0] ** 2 + grid.array[:, 1] ** 2 + 1e-20)
        return self.einstein_radius ** 2 * xp.log(r)


class SMBH(PointMass):
    r"""Supermassive black hole (SMBH) modelled as a point mass lens (docstring shortened)."""

    def __init__(
        self,
        centre: Tuple[float, float] = (0.0, 0.0),
        mass: float = 1e10,
        redshift_object: float = 0.5,
        redshift_source: float = 1.0,
    ):
        # from autogalaxy.cosmology.model import Planck15  (scaffolding: stand-in above)

        cosmology = Planck15()

        self.mass = mass

        critical_surface_density = (
            cosmology.critical_surface_density_between_redshifts_from(
                redshift_0=redshift_object,
                redshift_1=redshift_source,
            )
        )
        mass_angular = mass / critical_surface_density
        einstein_radius = (mass_angular / np.pi) ** 0.5

        super().__init__(centre=centre, einstein_radius=einstein_radius)

        self.redshift_object = redshift_object
        self.redshift_source = redshift_source


grid = Grid2DIrregular(jnp.array([[0.1, 0.2], [0.5, 0.3], [0.8, -0.4]]))  # scaffolding


@jax.jit  # scaffolding: a jitted lens-model likelihood term with the SMBH mass free
def smbh_potential(mass):  # scaffolding
    return SMBH(mass=mass).potential_2d_from(grid=grid, xp=jnp)  # scaffolding


try:  # scaffolding
    for mass in (1e9, 5e9, 1e10):  # scaffolding
        smbh_potential(jnp.asarray(mass))  # scaffolding
    _report({"jit(smbh_potential)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
