# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/458
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the PR the square root uses xp.sqrt, so the jitted potential compiles once and is reused.
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


class ArrayIrregular:  # scaffolding: autoarray's array wrapper, only arithmetic and .array
    def __init__(self, values):  # scaffolding
        self.array = values  # scaffolding

    def __rmul__(self, other):  # scaffolding
        return ArrayIrregular(other * self.array)  # scaffolding

    def __add__(self, other):  # scaffolding
        return ArrayIrregular(self.array + other)  # scaffolding


class NFWSph:  # autogalaxy/profiles/mass/dark/nfw.py, cut to the potential
    def __init__(self, centre=(0.0, 0.0), kappa_s=0.05, scale_radius=1.0):  # scaffolding
        self.centre = centre  # scaffolding
        self.kappa_s = kappa_s  # scaffolding
        self.scale_radius = scale_radius  # scaffolding

    def radial_grid_from(self, grid, xp=np, **kwargs):  # scaffolding: the transform/radial decorators
        return ArrayIrregular(xp.sqrt(grid[:, 0] ** 2 + grid[:, 1] ** 2))  # scaffolding

    def potential_2d_from(self, grid, xp=np, **kwargs):
        """
        Calculate the potential at a given set of arc-second gridded coordinates.
        (decorators to_array/transform dropped)
        """
        eta = (1.0 / self.scale_radius) * self.radial_grid_from(
            grid=grid, **kwargs
        ) + 0j
        return np.real(
            2.0 * self.scale_radius * self.kappa_s * self.potential_func_sph(eta, xp=xp)
        )

    @staticmethod
    def potential_func_sph(eta, xp=np):
        return ((xp.log(eta.array / 2.0)) ** 2) - (
            xp.arctanh(xp.sqrt(1 - eta.array**2))
        ) ** 2


grid = np.array([[0.1, 0.2], [0.5, 0.3], [0.8, -0.4], [1.5, 1.0]])  # scaffolding


@jax.jit  # scaffolding: a jitted likelihood term with kappa_s and scale_radius free
def potential(kappa_s, scale_radius):  # scaffolding
    return NFWSph(kappa_s=kappa_s, scale_radius=scale_radius).potential_2d_from(grid=grid, xp=jnp)  # scaffolding


try:  # scaffolding
    for ks, rs in ((0.05, 1.0), (0.1, 2.0), (0.2, 3.0)):  # scaffolding
        potential(jnp.asarray(ks), jnp.asarray(rs))  # scaffolding
    _report({"jit(potential)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
