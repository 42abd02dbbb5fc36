# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/500
# expect: trace-time-error at line 143
# runtime: ERROR TracerArrayConversionError
# why: the CSE decomposition fills a NumPy np.zeros buffer in Python loops and divides it in place by the traced Sersic convergence, so a jitted likelihood with a free mass-to-light ratio raises.
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


from abc import ABC
import numpy as np
from typing import Callable, List, Tuple
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


def cse_settings_from(
    effective_radius, sersic_index, sersic_constant, mass_to_light_gradient
):
    if mass_to_light_gradient > 0.5:
        if effective_radius > 0.2:
            lower_dex = 6.0
            upper_dex = np.min(
                [np.log10((18.0 / sersic_constant) ** sersic_index), 1.1]
            )

            if sersic_index <= 1.2:
                total_cses = 50
                sample_points = 80
            elif sersic_index > 3.8:
                total_cses = 40
                sample_points = 50
                lower_dex = 6.5
            else:
                total_cses = 30
                sample_points = 50

        else:
            if sersic_index <= 1.2:
                upper_dex = 1.0
                total_cses = 50
                sample_points = 80
                lower_dex = 4.5

            elif sersic_index > 3.8:
                total_cses = 40
                sample_points = 50
                lower_dex = 6.0
                upper_dex = 1.5
            else:
                upper_dex = 1.1
                lower_dex = 6.0
                total_cses = 30
                sample_points = 50
    else:
        upper_dex = np.min(
            [
                np.log10((23.0 / sersic_constant) ** sersic_index),
                0.85 - np.log10(effective_radius),
            ]
        )

        if (sersic_index <= 0.9) and (sersic_index > 0.8):
            total_cses = 50
            sample_points = 80
            upper_dex = np.log10((18.0 / sersic_constant) ** sersic_index)
            lower_dex = 4.3 + np.log10(effective_radius)
        elif sersic_index <= 0.8:
            total_cses = 50
            sample_points = 80
            upper_dex = np.log10((16.0 / sersic_constant) ** sersic_index)
            lower_dex = 4.0 + np.log10(effective_radius)
        elif sersic_index > 3.8:
            total_cses = 40
            sample_points = 50
            lower_dex = 4.5 + np.log10(effective_radius)
        else:
            lower_dex = 3.5 + np.log10(effective_radius)
            total_cses = 30
            sample_points = 50

    return upper_dex, lower_dex, total_cses, sample_points


class MassProfileCSE(ABC):  # autogalaxy/profiles/mass/abstract/cse.py, cut
    @staticmethod
    def convergence_cse_1d_from(
        grid_radii: np.ndarray, core_radius: float, xp=np
    ) -> np.ndarray:
        """Equation (14) of Oguri 2021 (docstring shortened)."""
        return 1.0 / (2.0 * (core_radius**2.0 + grid_radii**2.0) ** (1.5))


    def _decompose_convergence_via_cse_from(
        self,
        func: Callable,
        radii_min: float,
        radii_max: float,
        total_cses: int = 25,
        sample_points: int = 100,
    ) -> Tuple[List, List]:
        """Decompose the convergence into cored steep elliptical (cse) profiles (docstring shortened)."""
        from scipy.linalg import lstsq

        error_sigma = 0.1  # error spread. Could be any value.

        r_samples = np.logspace(np.log10(radii_min), np.log10(radii_max), sample_points)
        y_samples = np.ones_like(r_samples) / error_sigma
        y_samples_func = func(r_samples)

        core_radius_list = np.logspace(
            np.log10(radii_min), np.log10(radii_max), total_cses
        )

        # Different from Masamune's (2106.11464) method, I set S to a series fixed values. So that
        # the decomposition can be solved linearly.

        coefficient_matrix = np.zeros((sample_points, total_cses))

        for j in range(total_cses):
            coefficient_matrix[:, j] = self.convergence_cse_1d_from(
                r_samples, core_radius_list[j]
            )

        for k in range(sample_points):
            coefficient_matrix[k] /= y_samples_func[k] * error_sigma

        results = lstsq(coefficient_matrix, y_samples.T)

        amplitude_list = results[0]

        return amplitude_list, core_radius_list


class SersicMass(MassProfileCSE):  # autogalaxy/profiles/mass/stellar/sersic.py, cut to the CSE path
    def __init__(self, intensity=0.1, effective_radius=0.6, sersic_index=2.0, mass_to_light_ratio=1.0):  # scaffolding
        self.intensity = intensity  # scaffolding
        self.effective_radius = effective_radius  # scaffolding
        self.sersic_index = sersic_index  # scaffolding
        self.mass_to_light_ratio = mass_to_light_ratio  # scaffolding

    def axis_ratio(self):  # scaffolding: a spherical profile
        return 1.0  # scaffolding

    def decompose_convergence_via_cse(
        self, grid_radii: np.ndarray
    ) -> Tuple[List, List]:
        """Decompose the convergence of the Sersic profile into cse profiles (docstring shortened)."""

        upper_dex, lower_dex, total_cses, sample_points = cse_settings_from(
            effective_radius=self.effective_radius,
            sersic_index=self.sersic_index,
            sersic_constant=self.sersic_constant,
            mass_to_light_gradient=0.0,
        )

        scaled_effective_radius = self.effective_radius / np.sqrt(self.axis_ratio())
        radii_min = scaled_effective_radius / 10.0**lower_dex
        radii_max = scaled_effective_radius * 10.0**upper_dex

        def sersic_2d(r):
            return (
                self.mass_to_light_ratio
                * self.intensity
                * np.exp(
                    -self.sersic_constant
                    * (
                        ((r / scaled_effective_radius) ** (1.0 / self.sersic_index))
                        - 1.0
                    )
                )
            )

        return self._decompose_convergence_via_cse_from(
            func=sersic_2d,
            radii_min=radii_min,
            radii_max=radii_max,
            total_cses=total_cses,
            sample_points=sample_points,
        )

    @property
    def sersic_constant(self):
        """A parameter derived from Sersic index which ensures that effective radius contains 50% of the profile's
        total integrated light.
        """
        return (
            (2 * self.sersic_index)
            - (1.0 / 3.0)
            + (4.0 / (405.0 * self.sersic_index))
            + (46.0 / (25515.0 * self.sersic_index**2))
            + (131.0 / (1148175.0 * self.sersic_index**3))
            - (2194697.0 / (30690717750.0 * self.sersic_index**4))
        )


@jax.jit  # scaffolding: a jitted likelihood over a Sersic stellar-mass profile with a free mass-to-light ratio
def cse_amplitudes(mass_to_light_ratio):  # scaffolding
    profile = SersicMass(mass_to_light_ratio=mass_to_light_ratio)  # scaffolding
    amplitude_list, core_radius_list = profile.decompose_convergence_via_cse(grid_radii=None)  # scaffolding
    return jnp.sum(jnp.asarray(amplitude_list))  # scaffolding


try:  # scaffolding
    for ml in (1.0, 2.0, 3.0):  # scaffolding
        cse_amplitudes(jnp.asarray(ml))  # scaffolding
    _report({"jit(cse_amplitudes)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
