# source: https://github.com/MUSTANG-SZ/WITCH/commit/0c88329af185848ee2f183c767a3c66293d07f2c
# expect: unhashable-static at line 314
# runtime: ERROR ValueError
# why: isobeta/isobeta_grad list xyz (a list of coordinate arrays), beam, idx and idy in static_argnums; hashing the static arguments fails at the call, so the jitted isobeta_grad raises ValueError (non-hashable static arguments).
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



# ---- minkasi_jax/utils.py (constants, cosmology lines, fft_conv, make_grid, add_bubble, add_shock; unit conversions and tod_hi_pass cut) ----
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
# from astropy import constants as const  # scaffolding: astropy is not installed; stand-in values below
# from astropy import units as u  # scaffolding
# from astropy.cosmology import Planck15 as cosmo  # scaffolding

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platform_name", "cpu")

# Cosmology
dzline = np.linspace(0.00, 5.00, 1000)
_E = np.sqrt(0.3089 * (1 + dzline) ** 3 + 0.6911)  # scaffolding: Planck15-like H(z)/H0
daline = 4.85e-3 * 4424.0 * np.cumsum(1 / _E) * (5.0 / 999) / (1 + dzline)  # scaffolding: rough D_A in Mpc/arcsec
dzline = jnp.array(dzline)
daline = jnp.array(daline)

@jax.jit
def fft_conv(image, kernel):
    """
    Perform a convolution using FFTs for speed.

    Arguments:

        image: Data to be convolved

        kernel: Convolution kernel

    Returns:

        convolved_map: Image convolved with kernel.
    """
    Fmap = jnp.fft.fft2(jnp.fft.fftshift(image))
    Fkernel = jnp.fft.fft2(jnp.fft.fftshift(kernel))
    convolved_map = jnp.fft.fftshift(jnp.real(jnp.fft.ifft2(Fmap * Fkernel)))

    return convolved_map


@partial(jax.jit, static_argnums=(1, 2))
def make_grid(z, r_map, dr):
    """
    Make coordinate grids to build models in.
    All grids are sparse and are int(2*r_map / dr) in each dimension.

    Arguments:

        z: The redshift at which to build the grid

        r_map: Size of grid radially.

        dr: Grid resolution.

    Returns:

        x: Grid of x coordinates in MPc.

        y: Grid of y coordinates in MPc

        z: Grid of z coordinates in MPc
    """
    da = jnp.interp(z, dzline, daline)

    # Make grid with resolution dr and size r_map and convert to Mpc
    x = jnp.linspace(-1 * r_map, r_map, 2 * int(r_map / dr)) * da
    y = jnp.linspace(-1 * r_map, r_map, 2 * int(r_map / dr)) * da
    z = jnp.linspace(-1 * r_map, r_map, 2 * int(r_map / dr)) * da

    return jnp.meshgrid(x, y, z, sparse=True, indexing="xy")


@jax.jit
def add_bubble(pressure, xyz, xb, yb, zb, rb, sup, z):
    """
    Add bubble to 3d pressure profile.

    Arguments:

        pressure: The pressure profile

        xyz: Coordinate grids, see make_grid for details

        xb: Ra of bubble's center relative to cluster center

        yb: Dec of bubble's center relative to cluster center

        zb: Line of site offset of bubble's center relative to cluster center

        rb: Radius of bubble

        sup: Supression factor of bubble

        z: Redshift of cluster

    Returns:

        pressure_b: Pressure profile with bubble added
    """
    da = jnp.interp(z, dzline, daline)

    # Recenter grid on bubble center
    x = xyz[0] - (xb * da)
    y = xyz[1] - (yb * da)
    z = xyz[2] - (zb * da)

    # Supress points inside bubble
    pressure_b = jnp.where(
        jnp.sqrt(x**2 + y**2 + z**2) >= (rb * da), pressure, (1 - sup) * pressure
    )
    return pressure_b


@jax.jit
def add_shock(pressure, xyz, sr_1, sr_2, sr_3, s_theta, shock):
    """
    Add bubble to 3d pressure profile.

    Arguments:

        pressure: The pressure profile

        xyz: Coordinate grids, see make_grid for details

        sr_1: Amount to scale shock along x-axis

        sr_2: Amount to scale shock along y-axis

        sr_3: Amount to scale shock along z-axis

        s_theta: Angle to rotate shock in xy-plane

        shock: Factor by which pressure is enhanced within shock

    Returns:

        pressure_s: Pressure profile with shock added
    """
    # Rotate
    xx = xyz[0] * jnp.cos(s_theta) + xyz[1] * jnp.sin(s_theta)
    yy = xyz[1] * jnp.cos(s_theta) - xyz[0] * jnp.sin(s_theta)
    zz = xyz[2]

    # Apply ellipticity
    xfac = (xx / sr_1) ** 2
    yfac = (yy / sr_2) ** 2
    zfac = (zz / sr_3) ** 2

    # Enhance points inside shock
    pressure_s = jnp.where(
        jnp.sqrt(xfac + yfac + zfac) > 1, pressure, (1 + shock) * pressure
    )
    return pressure_s


# ---- minkasi_jax/isobeta.py ----
from functools import partial
import jax
import jax.numpy as jnp
import jax.scipy as jsp
# from utils import fft_conv, make_grid, add_shock, add_bubble  # scaffolding: defined above

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platform_name", "cpu")


@jax.jit
def _isobeta_elliptical(r_1, r_2, r_3, theta, beta, amp, xyz):
    """
    Elliptical isobeta pressure profile in 3d
    This function does not include smoothing or declination stretch
    which should be applied at the end.

    Arguments:

        r_1: Amount to scale along x-axis

        r_2: Amount to scale along y-axis

        r_3: Amount to scale along z-axis

        theta: Angle to rotate in xy-plane

        beta: Beta value of isobeta model

        amp: Amplitude of isobeta model

        xyz: Coordinte grid to calculate model on

    Returns:

        model: The isobeta model centered on the origin of xyz
    """
    # Rotate
    xx = xyz[0] * jnp.cos(theta) + xyz[1] * jnp.sin(theta)
    yy = xyz[1] * jnp.cos(theta) - xyz[0] * jnp.sin(theta)
    zz = xyz[2]

    # Apply ellipticity
    xfac = (xx / r_1) ** 2
    yfac = (yy / r_2) ** 2
    zfac = (zz / r_3) ** 2

    # Calculate pressure profile
    rr = 1 + xfac + yfac + zfac
    power = -1.5 * beta
    rrpow = rr**power

    return amp * rrpow


@partial(jax.jit, static_argnums=(0, 1, 3, 5, 7, 8, 9, 10))
def isobeta(
    xyz, n_profiles, profiles, n_shocks, shocks, n_bubbles, bubbles, dx, beam, idx, idy
):
    """
    Generically create isobeta models with substructure.

    Arguments:

        xyz: Coordinate grid to compute profile on.

        n_profiles: Number of isobeta profiles to add.

        profile: 2d array of profile parameters.
                 Each row is an isobeta profile with parameters:
                 (r_1, r_2, r_3, theta, beta, amp)

        n_shocks: Number of shocks to add.

        shocks: 2d array of shock parameters.
                Each row is a shock with parameters:
                (sr_1, sr_2, sr_3, s_theta, shock)

        n_bubbles: Number of bubbles to add.

        bubbles: 2d array of bubble parameters.
                 Each row is a bubble with parameters:
                 (xb, yb, zb, rb, sup, z)

        dx: Factor to scale by while integrating.
            Since it is a global factor it can contain unit conversions.
            Historically equal to y2K_RJ * dr * da * XMpc / me.

        beam: Beam to convolve by, should be a 2d array.

        idx: RA TOD in units of pixels.
             Should have Dec stretch applied.

        idy: Dec TOD in units of pixels.

    Returns:

        model: The isobeta model with the specified substructure.
    """
    pressure = jnp.zeros_like(xyz)
    for i in range(n_profiles):
        pressure = jnp.add(pressure, _isobeta_elliptical(*profiles[i], xyz))

    for i in range(n_shocks):
        pressure = add_shock(pressure, xyz, *shocks[i])

    for i in range(n_bubbles):
        pressure = add_bubble(pressure, xyz, *bubbles[i])

    # Integrate along line of site
    ip = jnp.trapz(pressure, dx=dx, axis=-1)

    bound0, bound1 = int((ip.shape[0] - beam.shape[0]) / 2), int(
        (ip.shape[1] - beam.shape[1]) / 2
    )
    beam = jnp.pad(
        beam,
        (
            (bound0, ip.shape[0] - beam.shape[0] - bound0),
            (bound1, ip.shape[1] - beam.shape[1] - bound1),
        ),
    )

    ip = fft_conv(ip, beam)

    return jsp.ndimage.map_coordinates(ip, (idy, idx), order=0)


# TODO: figure out how to skip parameters
@partial(jax.jit, static_argnums=(0, 1, 3, 5, 7, 8, 9, 10))
def isobeta_grad(
    xyz, n_profiles, profiles, n_shocks, shocks, n_bubbles, bubbles, dx, beam, idx, idy
):
    """
    Generically create isobeta models with substructure and get their gradients.

    Arguments:

        xyz: Coordinate grid to compute profile on.

        n_profiles: Number of isobeta profiles to add.

        profile: 2d array of profile parameters.
                 Each row is an isobeta profile with parameters:
                 (r_1, r_2, r_3, theta, beta, amp)

        n_shocks: Number of shocks to add.

        shocks: 2d array of shock parameters.
                Each row is a shock with parameters:
                (sr_1, sr_2, sr_3, s_theta, shock)

        n_bubbles: Number of bubbles to add.

        bubbles: 2d array of bubble parameters.
                 Each row is a bubble with parameters:
                 (xb, yb, zb, rb, sup, z)

        dx: Factor to scale by while integrating.
            Since it is a global factor it can contain unit conversions.
            Historically equal to y2K_RJ * dr * da * XMpc / me.

        beam: Beam to convolve by, should be a 2d array.

        idx: RA TOD in units of pixels.
             Should have Dec stretch applied.

        idy: Dec TOD in units of pixels.

    Returns:

        model: The isobeta model with the specified substructure.

        grad: The gradient of the model with respect to the model parameters.
    """
    pred = isobeta(
        xyz,
        n_profiles,
        profiles,
        n_shocks,
        shocks,
        n_bubbles,
        bubbles,
        dx,
        beam,
        idx,
        idy,
    )

    grad = jax.jacfwd(isobeta, argnums=(2, 4, 6))(
        xyz,
        n_profiles,
        profiles,
        n_shocks,
        shocks,
        n_bubbles,
        bubbles,
        dx,
        beam,
        idx,
        idy,
    )
    grad = jnp.array(grad)

    return pred, grad



# scaffolding: one elliptical isobeta profile with no shocks or bubbles, projected on a small map and sampled at a few TOD pixels
z = 0.3  # scaffolding
xyz = make_grid(z, 30.0, 2.0)  # scaffolding: r_map=30 arcsec, dr=2 arcsec
profiles = jnp.array([[0.5, 0.5, 0.5, 0.0, 0.7, 1.0]])  # scaffolding: (r_1, r_2, r_3, theta, beta, amp)
shocks = jnp.zeros((0, 5))  # scaffolding
bubbles = jnp.zeros((0, 6))  # scaffolding
beam = jnp.ones((5, 5)) / 25.0  # scaffolding
idx = jnp.array([10, 12, 14]); idy = jnp.array([10, 11, 12])  # scaffolding
try:  # scaffolding
    pred, grad = isobeta_grad(xyz, 1, profiles, 0, shocks, 0, bubbles, 0.1, beam, idx, idy)  # scaffolding
    _report({"jit(isobeta_grad)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
