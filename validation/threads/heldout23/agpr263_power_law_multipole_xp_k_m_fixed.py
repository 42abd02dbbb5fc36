# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/263
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the PR k_m and angle_m are computed in k_m_and_angle_m_from with xp threaded from convergence_2d_from, so the jitted convergence compiles once.
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


class units:  # scaffolding: astropy.units, only deg.to(rad)
    class deg:  # scaffolding
        @staticmethod
        def to(unit):  # scaffolding
            return np.pi / 180.0  # scaffolding

    rad = "rad"  # scaffolding


class aa:  # scaffolding: autoarray type hints
    class type:  # scaffolding
        Grid1D2DLike = Grid2DLike = object  # scaffolding


class Grid2DIrregular:  # scaffolding: autoarray grid wrapper, only .array
    def __init__(self, values):  # scaffolding
        self.array = values  # scaffolding


class MassProfile:  # scaffolding: autogalaxy MassProfile base
    def __init__(self, centre=(0.0, 0.0), ell_comps=(0.0, 0.0)):  # scaffolding
        self.centre, self.ell_comps = centre, ell_comps  # scaffolding


class convert:  # autogalaxy/convert.py
    @staticmethod
    def multipole_k_m_and_phi_m_from(
        multipole_comps: Tuple[float, float], m: int, xp=np
    ) -> Tuple[float, float]:
        """(docstring shortened)"""
        phi_m = (
            xp.arctan2(multipole_comps[0], multipole_comps[1]) * 180.0 / xp.pi / float(m)
        )
        k_m = xp.sqrt(multipole_comps[1] ** 2 + multipole_comps[0] ** 2)

        phi_m = xp.where(phi_m < -90.0 / m, phi_m + 360.0 / m, phi_m)

        return k_m, phi_m


# autogalaxy/profiles/mass/total/power_law_multipole.py
def radial_and_angle_grid_from(
    grid: aa.type.Grid2DLike, centre: Tuple[float, float] = (0.0, 0.0), xp=np
) -> Tuple[np.ndarray, np.ndarray]:
    """(docstring shortened)"""
    y, x = grid.array.T

    x_shifted = xp.subtract(x, centre[1])
    y_shifted = xp.subtract(y, centre[0])

    radial_grid = xp.sqrt(x_shifted**2 + y_shifted**2)

    angle_grid = xp.arctan2(y_shifted, x_shifted)

    return radial_grid, angle_grid


class PowerLawMultipole(MassProfile):
    def __init__(
        self,
        m=4,
        centre: Tuple[float, float] = (0.0, 0.0),
        einstein_radius: float = 1.0,
        slope: float = 2.0,
        multipole_comps: Tuple[float, float] = (0.0, 0.0),
    ):
        r"""(docstring shortened)"""
        super().__init__(centre=centre, ell_comps=(0.0, 0.0))

        self.m = int(m)

        self.einstein_radius = einstein_radius
        self.slope = slope

        self.multipole_comps = multipole_comps

    def k_m_and_angle_m_from(self, xp=np) -> Tuple[float, float]:
        """(docstring shortened)"""
        # from astropy import units  (scaffolding: stand-in above)

        k_m, angle_m = convert.multipole_k_m_and_phi_m_from(
            multipole_comps=self.multipole_comps, m=self.m, xp=xp
        )
        angle_m *= units.deg.to(units.rad)

        return k_m, angle_m


    def convergence_2d_from(
        self, grid: aa.type.Grid1D2DLike, xp=np, **kwargs
    ) -> np.ndarray:
        """Returns the two dimensional projected convergence (decorators over_sample/to_array/transform dropped)."""
        r, angle = radial_and_angle_grid_from(grid=grid, xp=xp)
        k_m, angle_m = self.k_m_and_angle_m_from(xp=xp)

        return (
            1.0
            / 2.0
            * (self.einstein_radius / r) ** (self.slope - 1)
            * k_m
            * xp.cos(self.m * (angle - angle_m))
        )


grid = Grid2DIrregular(jnp.array([[0.1, 0.2], [0.5, 0.3], [0.8, -0.4], [-0.6, 0.9]]))  # scaffolding


@jax.jit  # scaffolding: a jitted lens-model likelihood term with free multipole components
def multipole_convergence(multipole_comps):  # scaffolding
    profile = PowerLawMultipole(m=4, multipole_comps=(multipole_comps[0], multipole_comps[1]))  # scaffolding
    return profile.convergence_2d_from(grid=grid, xp=jnp)  # scaffolding


try:  # scaffolding
    for comps in ((0.01, 0.02), (0.03, -0.01), (-0.02, 0.05)):  # scaffolding
        multipole_convergence(jnp.asarray(comps))  # scaffolding
    _report({"jit(multipole_convergence)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
