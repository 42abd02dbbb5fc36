# source: https://github.com/exoplanet-dev/jaxoplanet/commit/b38518ae4756ee5027f817219d06f8b0c7a05e78
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: with the same jitted property, Surface.render is itself jitted (static res), so the inner jax.jit(poly_basis) is traced inside render once and nothing is recompiled: jit(render) compiles once for 5 calls with different theta.

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


from collections.abc import Iterable
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.spatial.transform import Rotation


# --- jaxoplanet/starry/core/basis.py ---
def poly_basis(deg):
    N = (deg + 1) * (deg + 1)

    @partial(jnp.vectorize, signature=f"(),(),()->({N})")
    def impl(x, y, z):
        xarr = [None for _ in range(N)]
        yarr = [None for _ in range(N)]

        # Ensures we get `nan`s off the disk
        xterm = 1.0 + 0.0 * z
        yterm = 1.0 + 0.0 * z

        i0 = 0
        di0 = 3
        j0 = 0
        dj0 = 2
        for n in range(deg + 1):
            i = i0
            di = di0
            xarr[i] = xterm
            j = j0
            dj = dj0
            yarr[j] = yterm
            i = i0 + di - 1
            j = j0 + dj - 1
            while i + 1 < N:
                xarr[i] = xterm
                xarr[i + 1] = xterm
                di += 2
                i += di
                yarr[j] = yterm
                yarr[j + 1] = yterm
                dj += 2
                j += dj - 1
            xterm *= x
            i0 += 2 * n + 1
            di0 += 2
            yterm *= y
            j0 += 2 * (n + 1) + 1
            dj0 += 2

        assert all(v is not None for v in xarr)
        assert all(v is not None for v in yarr)

        inds = []
        n = 0
        for ell in range(deg + 1):
            for m in range(-ell, ell + 1):
                if (ell + m) % 2 != 0:
                    inds.append(n)
                n += 1

        p = jnp.array(xarr) * jnp.array(yarr)
        if len(inds):
            return p.at[np.array(inds)].multiply(z)
        else:
            return p

    return impl


class _Dense:  # scaffolding: .todense() holder for the sparse starry matrices
    def __init__(self, a):  # scaffolding
        self.a = a  # scaffolding

    def todense(self):  # scaffolding
        return self.a  # scaffolding


def A1(ydeg):  # scaffolding: stand-in for the Ylm -> polynomial change of basis (identity here)
    return _Dense(jnp.eye((ydeg + 1) ** 2))  # scaffolding


def U(udeg):  # scaffolding: stand-in for the limb-darkening basis (no limb darkening: udeg 0)
    return jnp.ones((udeg + 1, (udeg + 1) ** 2))  # scaffolding


class Pijk:  # scaffolding: stand-in for jaxoplanet.starry.core.polynomials.Pijk (degree-0 products only)
    def __init__(self, dense):  # scaffolding
        self.dense = dense  # scaffolding

    @classmethod
    def from_dense(cls, x, degree):  # scaffolding
        return cls(x)  # scaffolding

    def __mul__(self, other):  # scaffolding
        return Pijk(self.dense * other.dense[0])  # scaffolding

    def todense(self):  # scaffolding
        return self.dense  # scaffolding


def left_project(ydeg, inc, obl, theta, theta_z, x):  # scaffolding: stand-in, the rotation is skipped
    return x  # scaffolding


def full_rotation_axis_angle(inc, obl, theta, theta_z):  # scaffolding: stand-in, a rotation about x by inc
    return 1.0, 0.0, 0.0, inc  # scaffolding


class Ylm(eqx.Module):  # scaffolding: stand-in for jaxoplanet.starry.ylm.Ylm (dense coefficients)
    data: jax.Array  # scaffolding

    def __init__(self, data=None):  # scaffolding
        self.data = jnp.ones(1) if data is None else jnp.asarray(data, float)  # scaffolding

    @property
    def deg(self):  # scaffolding
        return int(round(self.data.shape[0] ** 0.5)) - 1  # scaffolding

    def __getitem__(self, k):  # scaffolding
        return self.data[k[0] ** 2 + k[0] + k[1]]  # scaffolding

    def normalize(self):  # scaffolding
        return Ylm(self.data / self.data[0])  # scaffolding

    def todense(self):  # scaffolding
        return self.data  # scaffolding


# --- jaxoplanet/starry/utils.py ---
def ortho_grid(res: int):
    x, y = jnp.meshgrid(jnp.linspace(-1, 1, res), jnp.linspace(-1, 1, res))
    z = jnp.sqrt(1.0 - x**2 - y**2)
    y = y + 0.0 * z  # propagate nans
    x = jnp.ravel(x)[None, :]
    y = jnp.ravel(y)[None, :]
    z = jnp.ravel(z)[None, :]
    lat = 0.5 * jnp.pi - jnp.arccos(y)
    lon = jnp.arctan2(x, z)
    return (lat, lon), (x, y, z)


# --- jaxoplanet/starry/surface.py (before the commit; docstrings cut) ---
class Surface(eqx.Module):
    """Surface map object."""

    y: Ylm
    _inc: jax.Array | None
    _obl: jax.Array | None
    u: tuple
    period: jax.Array | None
    amplitude: jax.Array
    normalize: bool
    phase: jax.Array

    def __init__(
        self,
        *,
        y: Ylm | None = None,
        inc=0.5 * jnp.pi,
        obl=None,
        u: Iterable = (),
        period=None,
        amplitude=1.0,
        normalize: bool = True,
        phase=0.0,
    ):

        if y is None:
            y = Ylm()

        if normalize:
            amplitude = jnp.array(y[(0, 0)], float)
            y = Ylm(data=y.data).normalize()

        self.y = y
        self._inc = inc
        self._obl = obl
        self.u = tuple(u)
        self.period = period
        self.amplitude = amplitude
        self.normalize = normalize
        self.phase = phase

    @property
    def inc(self):
        return self._inc if self._inc is not None else 0.0

    @property
    def obl(self):
        return self._obl if self._obl is not None else 0.0

    @property
    def _poly_basis(self):
        return jax.jit(poly_basis(self.deg))

    @property
    def udeg(self):
        """Order of the polynomial limb darkening."""
        return len(self.u)

    @property
    def ydeg(self):
        return self.y.deg

    @property
    def deg(self):
        """Total degree of the spherical harmonic expansion (``udeg + ydeg``)."""
        return self.ydeg + self.udeg

    def _intensity(self, x, y, z, theta=None):
        pT = self._poly_basis(x, y, z)
        Ry = left_project(self.ydeg, self.inc, self.obl, theta, 0.0, self.y.todense())
        A1Ry = A1(self.ydeg).todense() @ Ry
        p_y = Pijk.from_dense(A1Ry, degree=self.ydeg)
        u = jnp.array([1, *self.u])
        p_u = Pijk.from_dense(u @ U(self.udeg), degree=self.udeg)
        p = (p_y * p_u).todense()
        return pT @ p * self.amplitude

    @partial(jax.jit, static_argnames=("res",))
    def render(self, theta: float | None = None, res: int = 400):
        """Returns the intensity map projected onto the x-y plane (sky)."""
        _, xyz = ortho_grid(res)
        intensity = self._intensity(*xyz, theta=theta)
        return jnp.reshape(intensity, (res, res))

    def intensity(self, lat: float, lon: float):
        """Returns the intensity of the map at a given latitude and longitude."""
        lon = lon + jnp.pi / 2  # convention, 0 lon faces the observer
        lat = jnp.pi / 2 - lat  # convention, latitude 0 is equator
        x = jnp.sin(lat) * jnp.cos(lon)
        y = jnp.sin(lat) * jnp.sin(lon)
        z = jnp.cos(lat) * jnp.ones_like(x)

        axis = full_rotation_axis_angle(self.inc - jnp.pi / 2, self.obl, 0.0, 0.0)
        axis = jnp.array(axis[0:3]) * axis[-1]
        rotation = Rotation.from_rotvec(axis)
        x, y, z = rotation.apply(jnp.array([x, y, z]).T).T

        return self._intensity(x, y, z)


# --- driver: render the map at several rotation angles (the jitted path) --- scaffolding
np.random.seed(30)  # scaffolding
m = Surface(y=Ylm(np.random.rand(16)), inc=0.9, obl=-0.3)  # scaffolding
for theta in np.linspace(0.0, 1.0, 5):  # scaffolding
    img = m.render(theta, res=50)  # scaffolding
print(float(jnp.nansum(img)))  # scaffolding
_report({"jit(render)", "jit(impl)"}, 5)  # scaffolding: 5 render calls
