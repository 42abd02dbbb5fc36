# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/273
# expect: trace-time-error at line 90
# runtime: ERROR TracerArrayConversionError
# why: Basis.deflections_yx_2d_from calls each mass profile without passing xp, so under jax.jit the profiles run their NumPy default on traced Einstein radii and raise.
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


from typing import List, Optional, Tuple, Union

import numpy as np
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


class MassProfile:  # scaffolding: autogalaxy MassProfile base
    def __init__(self, centre=(0.0, 0.0), ell_comps=(0.0, 0.0)):  # scaffolding
        self.centre, self.ell_comps = centre, ell_comps  # scaffolding


class LightProfile:  # scaffolding
    pass  # scaffolding


class Grid2DIrregular:  # scaffolding: autoarray grid wrapper, .array and .shape
    def __init__(self, values):  # scaffolding
        self.array = values  # scaffolding
        self.shape = values.shape  # scaffolding


class PointMass(MassProfile):  # autogalaxy/profiles/mass/point/point.py (decorators dropped)
    def __init__(
        self, centre: Tuple[float, float] = (0.0, 0.0), einstein_radius: float = 1.0
    ):
        super().__init__(centre=centre, ell_comps=(0.0, 0.0))
        self.einstein_radius = einstein_radius

    def deflections_yx_2d_from(self, grid, xp=np, **kwargs):
        y = xp.asarray(grid.array[:, 0])
        x = xp.asarray(grid.array[:, 1])
        alpha = self.einstein_radius**2 / (y**2 + x**2 + 1e-20)
        return xp.stack((alpha * y, alpha * x), axis=-1)


class Basis(LightProfile, MassProfile):  # autogalaxy/profiles/basis.py, cut
    def __init__(
        self,
        profile_list: List[Union[LightProfile, MassProfile]],
        regularization=None,
    ):
        """A basis is a collection of multiple light or mass profiles (docstring shortened)."""
        super().__init__(
            centre=profile_list[0].centre,
            ell_comps=profile_list[0].ell_comps,
        )
        self.profile_list = profile_list
        self.regularization = regularization

    @property
    def mass_profile_list(self) -> List[MassProfile]:
        return [profile for profile in self.profile_list if isinstance(profile, MassProfile)]  # scaffolding: aa.util.misc.cls_list_from

    def deflections_yx_2d_from(
        self, grid, xp=np, **kwargs
    ):
        """
        Returns the summed deflections of all mass profiles in the basis from a 2D grid of Cartesian (y,x) coordinates.
        (docstring shortened)
        """
        if len(self.mass_profile_list) > 0:
            return sum(
                [mass.deflections_yx_2d_from(grid=grid) for mass in self.profile_list]
            )
        return xp.zeros((grid.shape[0], 2))


grid = Grid2DIrregular(np.array([[0.1, 0.2], [0.5, 0.3], [0.8, -0.4], [-0.6, 0.9]]))  # scaffolding


@jax.jit  # scaffolding: a jitted likelihood over a mass basis with free Einstein radii
def basis_deflections(einstein_radii):  # scaffolding
    basis = Basis(profile_list=[PointMass(einstein_radius=einstein_radii[0]),  # scaffolding
                                PointMass(centre=(0.1, 0.1), einstein_radius=einstein_radii[1])])  # scaffolding
    return basis.deflections_yx_2d_from(grid=grid, xp=jnp)  # scaffolding


try:  # scaffolding
    for radii in ((0.5, 0.2), (0.6, 0.3), (0.7, 0.1)):  # scaffolding
        basis_deflections(jnp.asarray(radii))  # scaffolding
    _report({"jit(basis_deflections)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
