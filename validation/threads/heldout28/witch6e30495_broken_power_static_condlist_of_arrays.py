# source: https://github.com/MUSTANG-SZ/WITCH/commit/6e304952efde430a23147635db558bd5ea4d87bc
# expect: unhashable-static at line 282
# runtime: ERROR ValueError
# why: broken_power marks condlist static; nonpara_power builds it as tuple(map(tuple, jnp.array(...))), a tuple of tuples of JAX scalars, which cannot be hashed, so the jitted call raises ValueError (non-hashable static argument).
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



# ---- witch/nonparametric.py ----
import warnings 
import numpy as np

import jax
import jax.numpy as jnp

from functools import partial

# from . import utils as wu  # scaffolding: defined in this file
# from .grid import transform_grid  # scaffolding: defined in this file


# ---- witch/grid.py (make_grid, transform_grid; make_grid_from_wcs and the TOD helpers are cut) ----
from typing import Optional

rad_to_arcsec = (180 * 3600) / np.pi  # from witch/utils.py

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



# ---- witch/nonparametric.py (bin_map is cut) ----
@jax.jit
def power(x, rbin, cur_amp, cur_pow, c):
    """
    Function which returns the powerlaw, given the bin-edge constraints. Exists to be partialed.

    Parameters:
    -----------
    x : float
        Dummy variable to be partialed over
    rbin : float
        Edge of bin for powerlaw
    cur_amp : float
        Amplitude of power law
    cur_pow : float
        Power of power law
    c : float
        Constant offset

    Returns
    -------
    tmp : float
        Powerlaw evaluated at x
    """
    tmp = cur_amp * (x**cur_pow - rbin**cur_pow) + c
    return tmp 

@partial(jax.jit, static_argnums = [1,2],)
def broken_power(rs: jax.Array,
        condlist: tuple,
        rbins: jax.Array,
        amps: jax.Array,
        pows:jax.Array,
        c: float,
        ) -> jax.Array:
    """
    Function which returns a broken powerlaw evaluated at rs.

    Parameters:
    -----------
    rs : jax.Array
        Array of rs at which to compute pl.
    condlist : tuple
        tuple which enocdes which rs are evaluated by which parametric function
    rbins : jax.Array
        Array of bin edges for power laws
    amps : jax.Array
        Amplitudes of power laws
    pows : jax.Array                                                                                                                                                                                                                                                                            Exponents of power laws
    c : float
        Constant offset for powerlaws
    """
    cur_c = c #TODO: necessary?
    funclist = [] 
    for i in range(len(condlist)-1, -1, -1):   
        funclist.append(partial(power, rbin = rbins[i+1], cur_amp = amps[i], cur_pow = pows[i], c = cur_c))
        cur_c += amps[i]*(rbins[i]**pows[i]-rbins[i+1]**pows[i]) 
    return jnp.piecewise(rs, condlist, funclist)

#@partial(jax.jit, static_argnums = [3],)
def nonpara_power(
    dx: float,
    dy: float,
    dz: float,
    rbins: jax.Array, 
    amps: jax.Array, 
    pows:jax.Array,
    c: float,
    z: float,
    xyz: tuple[jax.Array, jax.Array, jax.Array, float, float],
) -> jax.Array:
    """
    Function which computes 3D pressure of segmented power laws

    Parameters:
    -----------
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
    rbins : jax.Array
        Array of bin edges for power laws
    amps : jax.Array
        Amplitudes of power laws
    pows : jax.Array 
        Exponents of power laws
    c : float
        Constant offset for powerlaws
    z : float,
        Redshift of cluster
    xyz : tuple[jax.Array, jax.Array, jax.Array, float, float]
        Coordinte grid to calculate model on.
        See `containers.Model.xyz` for details.
    """

    x, y, z, *_ = transform_grid(dx, dy, dz, 1., 1., 1., 0., xyz)
    r = jnp.sqrt(x**2 + y**2 + z**2)
    mapshape = r.shape
    r = r.ravel()
    condlist = jnp.array(([(rbins[i] <= r) & (r < rbins[i+1]) for i in range(len(pows)-1, -1, -1)]))
    condlist = tuple(map(tuple, condlist)) 
    pressure = broken_power(r, condlist, rbins, amps, pows, c).reshape(mapshape)

    return pressure



# ---- scratch/nonpara.py (helper, data, the broken_power and nonpara_power calls; the minkasi map-making part is cut) ----
def array_to_tuple(arr):
    if isinstance(arr, list) or type(arr) is np.ndarray:
        return tuple(array_to_tuple(item) for item in arr)
    else:
        return arr

rs = np.linspace(1, 10, 1000)
pows = np.array([-1. , -1.5, -2. , -2.5, -3., -4 ])
amps = np.array([-2, -3, -4, -5, -6, 0])
rbins = (0, 1, 2, 3, 5, 7, 999999)

xyz = make_grid(30.0, 3.0)  # scaffolding: stands in for model.xyz (the grid the minkasi Model builds)
try:  # scaffolding
    condlist = ([(rbins[i] <= rs) & (rs < rbins[i+1]) for i in range(len(pows)-1, -1, -1)])
    condlist = array_to_tuple(condlist)
    power_law = broken_power(rs, condlist, rbins, amps, pows, 0)
    pressure = nonpara_power(0,0,0, rbins, amps, pows, 0, 0, xyz)  # model.xyz in the script
    _report({"jit(broken_power)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
