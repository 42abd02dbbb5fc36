# source: https://github.com/PyAutoLabs/PyAutoGalaxy/issues/426
# expect: trace-time-error at line 105
# runtime: ERROR TracerArrayConversionError
# why: EllipseMultipoleScaled.__init__ converts the scaled multipole components with the convert helpers at their NumPy default, so traced components in a jitted ellipse fit raise.
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
from typing import Optional, Tuple
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


# autogalaxy/convert.py
def multipole_k_m_and_phi_m_from(
    multipole_comps: Tuple[float, float], m: int, xp=np
) -> Tuple[float, float]:
    r"""(docstring shortened)"""
    phi_m = (
        xp.arctan2(
            multipole_comps[0],
            xp.where(
                xp.logical_and(multipole_comps[0] == 0, multipole_comps[1] == 0),
                1.0,
                multipole_comps[1],
            ),
        )
        * 180.0
        / xp.pi
        / float(m)
    )

    k_m = xp.sqrt(multipole_comps[1] ** 2 + multipole_comps[0] ** 2)

    phi_m = xp.where(phi_m < -90.0 / m, phi_m + 360.0 / m, phi_m)

    return k_m, phi_m


def multipole_comps_from(
    k_m: float, phi_m: Optional[float], m: int,
    shape_angle: Optional[float]=None, ellipse_angle: Optional[float]=None,
    xp=np
) -> Tuple[float, float]:
    r"""(docstring shortened)"""
    # Degrees -> radians conversion
    deg_to_rad = xp.asarray(np.pi / 180.0)

    if phi_m is not None:
        angle = phi_m * float(m) * deg_to_rad
    elif (shape_angle is None) or (ellipse_angle is None):
        raise AssertionError('You must provide EITHER phi_m OR shape_angle and ellipse_angle.')
    else:
        multipole_angle = ellipse_angle-shape_angle
        angle = multipole_angle * float(m) * deg_to_rad

    multipole_comp_0 = k_m * xp.sin(angle)
    multipole_comp_1 = k_m * xp.cos(angle)

    return multipole_comp_0, multipole_comp_1


# autogalaxy/ellipse/ellipse/ellipse_multipole.py (methods other than __init__ cut)
class EllipseMultipole:
    def __init__(
        self,
        m=4,
        multipole_comps: Tuple[float, float] = (0.0, 0.0),
    ):
        r"""(docstring shortened)"""

        self.m = m
        self.multipole_comps = multipole_comps


class EllipseMultipoleScaled(EllipseMultipole):
    def __init__(
        self,
        m=4,
        scaled_multipole_comps: Tuple[float, float] = (0.0, 0.0),
        major_axis=1.0,
    ):
        r"""(docstring shortened)"""

        self.scaled_multipole_comps = scaled_multipole_comps
        k, phi = multipole_k_m_and_phi_m_from(
            multipole_comps=scaled_multipole_comps, m=m
        )
        k_adjusted = k * major_axis

        specific_multipole_comps = multipole_comps_from(k_adjusted, phi, m)

        super().__init__(m, specific_multipole_comps)

        self.specific_multipole_comps = specific_multipole_comps
        self.m = m


@jax.jit  # scaffolding: the jitted ellipse-fit likelihood with free scaled multipole components (issue #426)
def specific_comps(scaled_comps):  # scaffolding
    multipole = EllipseMultipoleScaled(m=4, scaled_multipole_comps=(scaled_comps[0], scaled_comps[1]), major_axis=2.0)  # scaffolding
    return jnp.stack(multipole.specific_multipole_comps)  # scaffolding


try:  # scaffolding
    for comps in ((0.01, 0.02), (0.03, -0.01), (-0.02, 0.05)):  # scaffolding
        specific_comps(jnp.asarray(comps))  # scaffolding
    _report({"jit(specific_comps)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
