# source: https://github.com/Herculens/herculens/commit/345fc0933f812541b46ba84c43f38b520340aaac
# expect: stale-closure at line 103
# runtime: ERROR UnexpectedTracerError
# why: the Gaussian PSF kernel is computed lazily and cached on the PSF object the first time kernel_point_source is read, which happens inside the jitted model(), so a tracer is stored on the shared PSF and the next traced model (the fit) raises UnexpectedTracerError.

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


from functools import partial

import numpy as np
import jax
import jax.numpy as jnp
from jax import jit


def fwhm2sigma(fwhm):  # herculens/Util/util.py
    sigma = fwhm / (2 * np.sqrt(2 * np.log(2)))
    return sigma


def make_grid(numPix, deltapix):  # scaffolding: herculens.Util.util.make_grid cut to a square, centred numpy grid
    x = (np.arange(numPix) - (numPix - 1) / 2) * deltapix
    xx, yy = np.meshgrid(x, x)
    return xx.ravel(), yy.ravel()


def array2image(array):  # herculens/Util/util.py (square case)
    n = int(np.sqrt(len(array)))
    return array.reshape(n, n)


class Gaussian(object):  # herculens/LightModel/Profiles/gaussian.py (function only)
    def function(self, x, y, amp, sigma, center_x=0, center_y=0):
        c = amp / (2 * np.pi * sigma**2)
        R2 = (x - center_x) ** 2 / sigma**2 + (y - center_y) ** 2 / sigma**2
        return c * jnp.exp(-R2 / 2.)


def kernel_gaussian(kernel_numPix, deltaPix, fwhm):  # herculens/Util/kernel_util.py
    sigma = fwhm2sigma(fwhm)
    x_grid, y_grid = make_grid(kernel_numPix, deltaPix)
    gaussian = Gaussian()
    kernel = gaussian.function(x_grid, y_grid, amp=1., sigma=sigma, center_x=0, center_y=0)
    kernel /= np.sum(kernel)
    kernel = array2image(kernel)
    return kernel


# herculens/Instrument/psf.py (before the commit; docstrings, PIXEL/NONE branches and other methods cut)
class PSF(object):
    def __init__(self, psf_type='NONE', fwhm=None, truncation=5,
                 pixel_size=None, kernel_point_source=None,
                 kernel_supersampling_factor=1):
        self.psf_type = psf_type
        self._pixel_size = pixel_size

        if self.psf_type == 'GAUSSIAN':
            # Validate required inputs
            if fwhm is None:
                raise ValueError('Must set `fwhm` for GAUSSIAN `psf_type`')

            self._fwhm = fwhm
            self._sigma_gaussian = fwhm2sigma(self._fwhm)
            self._truncation = truncation
            self._kernel_supersampling_factor = 0
        else:
            raise ValueError("psf_type %s not supported" % self.psf_type)

    @property
    def kernel_point_source(self):
        if hasattr(self, '_kernel_point_source'):
            return self._kernel_point_source

        if self._pixel_size is None:
            raise ValueError('Must first set `pixel_size`')

        if self.psf_type == 'GAUSSIAN':
            npix = round(self._truncation * self._fwhm / self._pixel_size)
            # Ensure an odd number of pixels
            npix += 1 - npix % 2
            kernel = kernel_gaussian(npix, self._pixel_size,
                                     self._fwhm)
            self._kernel_point_source = kernel

        return self._kernel_point_source


class LensImage(object):  # scaffolding: a Gaussian source convolved with the PSF kernel, model() jitted with self static as in herculens
    def __init__(self, psf, npix=32, pixel_size=0.08):
        self.PSF = psf
        self._x, self._y = make_grid(npix, pixel_size)

    @partial(jit, static_argnums=(0,))
    def model(self, kwargs_source):
        light = Gaussian().function(self._x, self._y, **kwargs_source)
        return jax.scipy.signal.convolve2d(array2image(light), self.PSF.kernel_point_source, mode='same')


# scaffolding: simulate a mock image with one LensImage, then fit it with a second LensImage that shares the PSF
# (as the herculens notebooks do: true_lens_image for the mock, lens_image for the model)
psf = PSF(psf_type='GAUSSIAN', fwhm=0.3, pixel_size=0.08)
true_lens_image = LensImage(psf)
lens_image = LensImage(psf)
calls = 0
try:  # scaffolding
    data = true_lens_image.model({'amp': 10., 'sigma': 0.3, 'center_x': 0., 'center_y': 0.})
    calls += 1

    def loss(amp):
        return jnp.sum((lens_image.model({'amp': amp, 'sigma': 0.3, 'center_x': 0., 'center_y': 0.}) - data) ** 2)

    g = jax.jit(jax.grad(loss))(8.)
    calls += 1
    _report({"jit(model)", "jit(loss)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
