# source: https://github.com/MUSTANG-SZ/WITCH/commit/a787c26fb037d0daf642a1080ac009641a1df5c4
# expect: trace-time-error at line 341
# runtime: ERROR TypeError
# why: get_nz/get_hz are wrapped in functools.cache, and the jitted gnfw calls them with its traced redshift z, so cache tries to hash a tracer and raises TypeError (unhashable DynamicJaxprTracer).
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



# ---- witch/utils.py (constants, cosmology lines, get_da/get_nz/get_hz; the unit conversions and FFT helpers are cut) ----
from functools import cache, partial

import jax
import jax.numpy as jnp
import numpy as np
# from astropy import constants as const  # scaffolding: astropy is not installed; stand-in values below
# from astropy import units as u  # scaffolding: astropy is not installed; stand-in values below
# from astropy.cosmology import Planck15 as cosmo  # scaffolding: astropy is not installed; stand-in values below
from jax.typing import ArrayLike

jax.config.update("jax_enable_x64", True)

# scaffolding: stand-ins for the astropy constants and Planck15 cosmology (rough flat LCDM values)
ap = 0.12
h70 = 67.74 / 7.00e01  # scaffolding: cosmo.H0.value / 7.00e01
rad_to_arcsec = (180 * 3600) / np.pi
zline = jnp.linspace(0, 10, 100)
_E = jnp.sqrt(0.3089 * (1 + zline) ** 3 + 0.6911)  # scaffolding: H(z)/H0 for Planck15-like parameters
daline = 4.85e-3 * (1 + zline) ** -1 * jnp.cumsum(1 / _E) * (10 / 99) * 4424.0  # scaffolding: rough D_A in Mpc/arcsec
nzline = 1.27e11 * _E**2  # scaffolding: critical density in Msun/Mpc^3
hzline = _E  # scaffolding

@cache
def get_da(z: ArrayLike) -> jax.Array:
    """
    Get factor to convert from arcseconds to MPc.

    Parameters
    ----------
    z : ArrayLike
        The redshift at which to compute the factor.

    Returns
    -------
    da : jax.Array
        Conversion factor from arcseconds to MPc.
    """
    return jnp.interp(z, zline, daline)


@cache
def get_nz(z: ArrayLike) -> jax.Array:
    """
    Get the critical density at a given redshift.

    Parameters
    ----------
    z : ArrayLike
        The redshift at which to compute the critical density.

    Returns
    -------
    nz : jax.Array
        Critical density at the given z.
        This is in units of solar masses per cubic Mpc.
    """
    return jnp.interp(z, zline, nzline)


@cache
def get_hz(z: ArrayLike) -> jax.Array:
    """
    Get the dimensionless hubble constant, h, at a given redshift.

    Parameters
    ----------
    z : ArrayLike
        The redshift at which to compute h.

    Returns
    -------
    hz : jax.Array
        h at the given z.
    """
    return jnp.interp(z, zline, hzline)



# ---- witch/grid.py (make_grid, transform_grid) ----
from typing import Optional

Grid = tuple[jax.Array, jax.Array, jax.Array, float, float]


def make_grid(
    r_map: float,
    dx: float,
    dy: Optional[float] = None,
    dz: Optional[float] = None,
    x0: float = 0,
    y0: float = 0,
) -> Grid:
    """
    Make coordinate grids to build models in.
    All grids are sparse and are `int(2*r_map / dr)` in each the non-sparse dimension.

    Parameters
    ----------
    r_map : float
        Size of grid radially.
    dx : float
        Grid resolution in x, should be in same units as r_map.
    dy : Optional[float], default: None
        Grid resolution in y, should be in same units as r_map.
        If None then dy is set to dx.
    dz : Optional[float], default: None
        Grid resolution in z, should be in same units as r_map.
        If None then dz is set to dx.
    x0 : float, default: 0
        Origin of grid in RA, assumed to be in same units as r_map.
    y0 : float, default: 0
        Origin of grid in Dec, assumed to be in same units as r_map.

    Returns
    -------
    x : jax.Array
        Grid of x coordinates in same units as r_map.
        Has shape (`int(2*r_map / dr), 1, 1).
    y : jax.Array
        Grid of y coordinates in same units as r_map.
        Has shape (1, `int(2*r_map / dr), 1).
    z : jax.Array
        Grid of z coordinates in same units as r_map.
        Has shape (1, 1, `int(2*r_map / dr)`).
    x0 : float
        Origin of grid in RA, in same units as r_map.
    y0 : float
        Origin of grid in Dec, in same units as r_map.
    """
    if dy is None:
        dy = dx
    if dz is None:
        dz = dx

    # Make grid with resolution dr and size r_map
    x = (
        jnp.linspace(-1 * r_map, r_map, 2 * int(r_map / dx))
        / jnp.cos(y0 / rad_to_arcsec)
        + x0
    )
    y = jnp.linspace(-1 * r_map, r_map, 2 * int(r_map / dy)) + y0
    z = jnp.linspace(-1 * r_map, r_map, 2 * int(r_map / dz))
    x, y, z = jnp.meshgrid(x, y, z, sparse=True, indexing="ij")

    return (x, y, z, x0, y0)




@jax.jit
def transform_grid(
    dx: float,
    dy: float,
    dz: float,
    r_1: float,
    r_2: float,
    r_3: float,
    theta: float,
    xyz: Grid,
):
    """
    Shift, rotate, and apply ellipticity to coordinate grid.
    Note that the `Grid` type is an alias for `tuple[jax.Array, jax.Array, jax.Array, float, float]`.

    Parameters
    ----------
    dx : float
        Amount to move grid origin in x
    dy : float
        Amount to move grid origin in y
    dz : float
        Amount to move grid origin in z
    r_1 : float
        Amount to scale along x-axis
    r_2 : float
        Amount to scale along y-axis
    r_3 : float
        Amount to scale along z-axis
    theta : float
        Angle to rotate in xy-plane in radians
    xyz : Grid
        Coordinte grid to transform

    Returns
    -------
    trasnformed : Grid
        Transformed coordinate grid.
    """
    # Get origin
    x0, y0 = xyz[3], xyz[4]
    # Shift origin
    x = (xyz[0] - (x0 + dx / jnp.cos(y0 / rad_to_arcsec))) * jnp.cos(
        (y0 + dy) / rad_to_arcsec
    )
    y = xyz[1] - (y0 + dy)
    z = xyz[2] - dz

    # Rotate
    xx = x * jnp.cos(theta) + y * jnp.sin(theta)
    yy = y * jnp.cos(theta) - x * jnp.sin(theta)

    # Apply ellipticity
    x = xx / r_1
    y = yy / r_2
    z = z / r_3

    return x, y, z, x0 - dx, y0 - dy


# ---- witch/structure.py (gnfw; the other profiles are cut) ----

@jax.jit
def gnfw(
    dx: float,
    dy: float,
    dz: float,
    r_1: float,
    r_2: float,
    r_3: float,
    theta: float,
    P0: float,
    c500: float,
    m500: float,
    gamma: float,
    alpha: float,
    beta: float,
    z: float,
    xyz: tuple[jax.Array, jax.Array, jax.Array, float, float],
) -> jax.Array:
    r"""
    Elliptical gNFW pressure profile in 3d.
    This function does not include smoothing or declination stretch
    which should be applied at the end.
    TODO: Add units to add parameters!

    Once the grid is transformed the profile is computed as:

    $$
    \dfrac{P_{500} * P_{0}}{{\left( r^{\gamma}\left( 1 + r^{\alpha} \right) \right)}^{\dfrac{\beta - \gamma}{\alpha}}}
    $$

    where:

    $$
    r = c_{500} \sqrt{x^2 + y^2 + z^2} {\frac{3m_{500}}{2000 \pi n_z}}^{-\frac{1}{3}}
    $$

    $$
    P_{500} = 1.65 \times 10^{-3} {\frac{m_{500}*h_{70}}{3 \times 10^{14}}}^{\frac{2}{3} + ap}{h_z}^{\frac{8}{3}}{h_{70}}^2
    $$

    $n_z$ is the critical density at the cluster redshift and $h_z$ is the Hubble constant at the cluster redshift.

    Parameters
    ----------
    dx : float
        RA of cluster center relative to grid origin.
        Passed to `grid.transform_grid`.
        Units: arcsec
    dy : float
        Dec of cluster center relative to grid origin.
        Passed to `grid.transform_grid`.
        Units: arcsec
    dz : float
        Line of sight offset of cluster center relative to grid origin.
        Passed to `grid.transform_grid`.
        Units: arcsec
    r_1 : float
        Amount to scale along x-axis.
        Units are arbitrary, only ratio of r_1/r_2, r_1/r_3, r_2/r_3 matters
        Passed to `grid.transform_grid`.
        Units: arbitrary
    r_2 : float
        Amount to scale along y-axis.
        Passed to `grid.transform_grid`.
    r_3 : float
        Amount to scale along z-axis.
        Passed to `grid.transform_grid`.
    theta : float
        Angle to rotate in xy-plane.
        Passed to `grid.transform_grid`.
        Units: radians
    P0 : float
        Amplitude of the pressure profile.
        Units: unitless
    c500 : float
        Concentration parameter at a density contrast of 500.
        Units: unitless
    m500 : float
        Mass at a density contrast of 500.
        Units: M_solar
    gamma : float
        The central slope.
        Units: unitless
    alpha : float
        The intermediate slope.
        Units: unitless
    beta : float
        The outer slope.
        Units: unitless
    z : float
        Redshift of cluster.
        Units: redshift
    xyz : tuple[jax.Array, jax.Array, jax.Array, float, float]
        Coordinte grid to calculate model on.
        See `containers.Model.xyz` for details.

    Returns
    -------
    model : jax.Array
        The gnfw model evaluated on the grid.
    """
    nz = get_nz(z)
    hz = get_hz(z)

    x, y, z, *_ = transform_grid(dx, dy, dz, r_1, r_2, r_3, theta, xyz)

    r500 = (m500 / (4.00 * jnp.pi / 3.00) / 5.00e02 / nz) ** (1.00 / 3.00)

    r = c500 * jnp.sqrt(x**2 + y**2 + z**2) / r500
    denominator = (r**gamma) * (1 + r**alpha) ** ((beta - gamma) / alpha)

    P500 = (
        1.65e-03
        * (m500 / (3.00e14 / h70)) ** (2.00 / 3.00 + ap)
        * hz ** (8.00 / 3.00)
        * h70**2
    )

    return P500 * P0 / denominator


# scaffolding: an A10-like gNFW cluster evaluated on a small grid for two clusters at different redshifts
xyz = make_grid(60.0, 4.0)  # scaffolding: 60 arcsec half-size, 4 arcsec pixels
try:  # scaffolding
    for z_cl in (0.3, 0.5):  # scaffolding
        pressure = gnfw(0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 8.403, 1.177, 1.0e15, 0.3081, 1.0510, 5.4905, z_cl, xyz)  # scaffolding
        print(f"z={z_cl}: central pressure {float(pressure.max()):.4g}")  # scaffolding
    _report({"jit(gnfw)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
