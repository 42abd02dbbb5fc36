# source: https://github.com/GalSim-developers/JAX-GalSim/commit/e3f37b9a4e4eb502a3aedc522dcd4bd894b25de8
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: after the commit n_photons is turned into a Python float with .item(), which hashes, so each of the two jitted draw functions compiles once for its 2 calls with the same static n and n_photons.

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


import types
from contextlib import contextmanager
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


# --- stand-ins for jax_galsim (not installed) --- scaffolding
class _Image(eqx.Module):  # scaffolding: jax_galsim Image is a pytree
    array: jax.Array  # scaffolding


class _GSObject(eqx.Module):  # scaffolding: a Gaussian-mixture profile pytree standing in for GSObject
    fluxes: jax.Array  # scaffolding
    sigmas: jax.Array  # scaffolding

    @property
    def flux(self):  # scaffolding
        return jnp.sum(self.fluxes)  # scaffolding

    @property
    def _flux_per_photon(self):  # scaffolding
        return 1.0  # scaffolding

    @property
    def max_sb(self):  # scaffolding
        return jnp.sum(self.fluxes / (2 * jnp.pi * self.sigmas**2))  # scaffolding

    def __add__(self, other):  # scaffolding
        return _GSObject(jnp.concatenate([self.fluxes, other.fluxes]), jnp.concatenate([self.sigmas, other.sigmas]))  # scaffolding

    def getGoodImageSize(self, pixel_scale):  # scaffolding
        return jnp.ceil(12 * jnp.max(self.sigmas) / pixel_scale).astype(int)  # scaffolding

    def drawImage(self, nx, ny, scale, method, n_photons, poisson_flux, gain, rng, maxN=None):  # scaffolding
        x = (jnp.arange(nx) - (nx - 1) / 2) * scale  # scaffolding
        r2 = x[:, None] ** 2 + x[None, :] ** 2  # scaffolding
        prof = jnp.sum(self.fluxes[:, None, None] / (2 * jnp.pi * self.sigmas[:, None, None] ** 2)  # scaffolding
                       * jnp.exp(-r2 / (2 * self.sigmas[:, None, None] ** 2)), axis=0) * scale**2  # scaffolding
        if maxN is not None:  # scaffolding: photons shot in batches of maxN
            prof = prof * (1.0 + 1e-3 * (n_photons % maxN) / n_photons)  # scaffolding
        return _Image(array=prof * n_photons / self.flux / gain)  # scaffolding


def _Exponential(half_light_radius, flux):  # scaffolding
    return _GSObject(jnp.array([flux]), jnp.array([half_light_radius / 1.678]))  # scaffolding


def _Gaussian(fwhm, flux):  # scaffolding
    return _GSObject(jnp.array([flux]), jnp.array([fwhm / 2.355]))  # scaffolding


def _Convolve(objs):  # scaffolding: convolving Gaussian mixtures adds variances
    a, b = objs  # scaffolding
    return _GSObject((a.fluxes[:, None] * b.fluxes[None, :]).ravel(),  # scaffolding
                     jnp.sqrt(a.sigmas[:, None] ** 2 + b.sigmas[None, :] ** 2).ravel())  # scaffolding


galsim = types.SimpleNamespace(Exponential=_Exponential, Gaussian=_Gaussian, Convolve=_Convolve,  # scaffolding
                               BaseDeviate=lambda seed: seed)  # scaffolding


@jax.jit
def calculate_n_photons(flux, flux_per_photon, max_sb, n_photons=0, rng=None,  # scaffolding: jax_galsim.core.draw
                        max_extra_noise=0.0, poisson_flux=True):  # scaffolding: (n_photons, g, rng), cut down
    mod_flux = flux / (flux_per_photon * flux_per_photon)  # scaffolding
    return jnp.floor(jnp.abs(mod_flux) + 0.5), 1.0, rng  # scaffolding


@contextmanager
def time_code_block(msg):  # scaffolding: jax_galsim.core.testing.time_code_block without the timer
    yield  # scaffolding


# --- jax_galsim/photon_array.py ---
_JAX_GALSIM_PHOTON_ARRAY_SIZE = None


@contextmanager
def fixed_photon_array_size(size):
    """Context manager to temporarily set a fixed size for photon arrays."""
    global _JAX_GALSIM_PHOTON_ARRAY_SIZE
    old_size = _JAX_GALSIM_PHOTON_ARRAY_SIZE
    _JAX_GALSIM_PHOTON_ARRAY_SIZE = size
    try:
        yield
    finally:
        _JAX_GALSIM_PHOTON_ARRAY_SIZE = old_size


# --- tests/jax/test_jitting.py: test_jitting_draw_phot_fixed (after the commit; no-jit branch cut) ---
def test_jitting_draw_phot_fixed():
    def _build_and_draw(hlr, fwhm, jit=True, maxn=False):
        gal = galsim.Exponential(
            half_light_radius=hlr, flux=1000.0
        ) + galsim.Exponential(half_light_radius=hlr * 2.0, flux=100.0)
        psf = galsim.Gaussian(fwhm=fwhm, flux=1.0)
        final = galsim.Convolve(
            [gal, psf],
        )
        n = final.getGoodImageSize(0.2).item()
        n += 1
        n_photons = calculate_n_photons(
            final.flux,
            final._flux_per_photon,
            final.max_sb,
            poisson_flux=False,
            rng=galsim.BaseDeviate(1234),
        )[0].item()
        gain = 1.0
        if jit:
            if maxn:
                return _draw_it_jit_maxn(final, n, n_photons, gain)
            else:
                return _draw_it_jit(final, n, n_photons, gain)

    @partial(jax.jit, static_argnums=(1, 2))
    def _draw_it_jit(obj, n, nphotons, gain):
        with fixed_photon_array_size(2048):
            return obj.drawImage(
                nx=n,
                ny=n,
                scale=0.2,
                n_photons=nphotons,
                method="phot",
                poisson_flux=False,
                gain=gain,
                rng=galsim.BaseDeviate(42),
            )

    @partial(jax.jit, static_argnums=(1, 2))
    def _draw_it_jit_maxn(obj, n, nphotons, gain):
        with fixed_photon_array_size(2048):
            return obj.drawImage(
                nx=n,
                ny=n,
                scale=0.2,
                n_photons=nphotons,
                method="phot",
                poisson_flux=False,
                gain=gain,
                maxN=101,
                rng=galsim.BaseDeviate(42),
            )

    with time_code_block("warmup jit"):
        img3 = _build_and_draw(0.5, 1.0)

    with time_code_block("jit"):
        img4 = _build_and_draw(0.5, 1.0)

    with time_code_block("warmup jit+maxn"):
        img5 = _build_and_draw(0.5, 1.0, maxn=True)

    with time_code_block("jit+maxn"):
        img6 = _build_and_draw(0.5, 1.0, maxn=True)

    np.testing.assert_allclose(img3.array, img4.array)
    np.testing.assert_allclose(img5.array, img6.array)
    np.testing.assert_allclose(img3.array.sum(), 1100.0, rtol=1e-2)  # scaffolding: rtol for the stand-in profile


test_jitting_draw_phot_fixed()  # scaffolding
_report({"jit(_draw_it_jit)", "jit(_draw_it_jit_maxn)"}, 4)  # scaffolding: 2 calls of each jitted draw
