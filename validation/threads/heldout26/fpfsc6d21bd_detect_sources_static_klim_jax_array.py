# source: https://github.com/mr-superonion/FPFS/commit/c6d21bd386fb02084fb1ba5ae0d70270d1ba050b
# expect: unhashable-static at line 206
# runtime: ERROR ValueError
# why: klim = klim_pix * _dk is a jax array (get_klim is jitted) and detect_sources passes it to convolve2gausspsf, whose klim is a static argname, so jit raises ValueError (non-hashable static argument).
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



# FPFS shear estimator (fpfs/imgutil.py and fpfs/image.py at the parent of c6d21bd)
import jax
import math
import logging
import numpy as np
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnames=["ny", "nx", "return_grid"])
def _gauss_kernel_rfft(ny, nx, sigma, return_grid=False):
    """Generates a Gaussian kernel on grids for np.fft.rfft transform

    Args:
        ny (int):    		    grid size in y-direction
        nx (int):    		    grid size in x-direction
        sigma (float):		    scale of Gaussian in Fourier space
        return_grid (bool):     return grids or not
    Returns:
        out (ndarray):          Gaussian on grids
        ygrid, xgrid (typle):   grids for [y, x] axes, if return_grid
    """
    out = jnp.empty((ny, nx // 2 + 1))
    x = jnp.fft.rfftfreq(nx, 1 / np.pi / 2.0)
    y = jnp.fft.fftfreq(ny, 1 / np.pi / 2.0)
    ygrid, xgrid = jnp.meshgrid(y, x, indexing="ij")
    r2 = xgrid**2.0 + ygrid**2.0
    out = jnp.exp(-r2 / 2.0 / sigma**2.0)
    if not return_grid:
        return out
    else:
        return out, (ygrid, xgrid)


@jax.jit
def get_fourier_pow(input_data):
    """Gets Fourier power function

    Args:
        input_data (ndarray):  image array [centroid does not matter]
    Returns:
        out (ndarray):      Fourier Power [centered at [ngrid//2,ngrid//2]]
    """
    out = jnp.fft.fftshift(jnp.abs(jnp.fft.fft2(input_data)) ** 2.0).astype(jnp.float64)
    return out


@jax.jit
def _find_peaks_jit(imgCov, thres, thres2=0.0):
    sel = imgCov > thres
    for ax in [-1, -2]:
        for shift in [-1, 1]:
            filtered = imgCov - jnp.roll(imgCov, shift=shift, axis=ax)
            sel = jnp.logical_and(sel, (filtered >= thres2))
    return sel


def find_peaks(imgCov, thres, thres2=0.0, bound=16.0):
    """Detects peaks and returns the coordinates (y,x)
    This function does the pre-selection in Li & Mandelbaum (2023)

    Args:
        imgCov (ndarray):       convolved image
        thres (float):          detection threshold
        thres2 (float):         peak identification difference threshold
        bound (float):          minimum distance to the image boundary
    Returns:
        coord_array (ndarray):  ndarray of coordinates [y,x]
    """
    sel = _find_peaks_jit(imgCov, thres, thres2=0.0)
    data = jnp.array(jnp.int_(jnp.asarray(jnp.where(sel))))
    del sel
    ny, nx = imgCov.shape
    y = data[0]
    x = data[1]
    msk = (y > bound) & (y < ny - bound) & (x > bound) & (x < nx - bound)
    data = data[:, msk]
    return data


@partial(jax.jit, static_argnames=["klim"])
def convolve2gausspsf(img_data, psf_data, gsigma, klim):
    """This function convolves an image to transform the PSF to a Gaussian

    Args:
        img_data (ndarray):     image data
        psf_data (ndarray):     psf data
        gsigma (float):         sigma of Gaussian
        klim (float):           maximum wavenumber in Fourier space
    Returns:
        img_conv (ndarray):     the reconvolved image
    """
    ny, nx = psf_data.shape
    psf_fourier = jnp.fft.rfft2(jnp.fft.ifftshift(psf_data))
    gauss_kernel, _ = _gauss_kernel_rfft(ny, nx, gsigma, return_grid=True)

    # convolved images
    img_fourier = jnp.fft.rfft2(img_data) / psf_fourier * gauss_kernel
    if klim > 0.0:
        # apply a truncation in Fourier space
        nxklim = int(klim * nx / jnp.pi / 2.0 + 0.5)
        nyklim = int(klim * ny / jnp.pi / 2.0 + 0.5)
        img_fourier.at[nyklim + 1 : -nyklim, :].set(0.0)
        img_fourier.at[:, nxklim + 1 :].set(0.0)
    img_conv = jnp.fft.irfft2(img_fourier, (ny, nx))
    return img_conv


@jax.jit
def get_klim(psf_array, sigma, thres=1e-20):
    """Gets klim, the region outside klim is supressed by the shaplet Gaussian
    kernel in FPFS shear estimation method; therefore we set values in this
    region to zeros

    Args:
        psf_array (ndarray):    PSF's Fourier power or Fourier transform
        sigma (float):          one sigma of Gaussian Fourier power
        thres (float):          the threshold for a tuncation on Gaussian
                                [default: 1e-20]
    Returns:
        klim (float):           the limit radius
    """
    ngrid = psf_array.shape[0]

    def cond_fun(dist):
        ave = abs(
            jnp.exp(-(dist**2.0) / 2.0 / sigma**2.0)
            / psf_array[ngrid // 2 + dist, ngrid // 2]
        )
        ave += abs(
            jnp.exp(-(dist**2.0) / 2.0 / sigma**2.0)
            / psf_array[ngrid // 2, ngrid // 2 + dist]
        )
        ave = ave / 2.0
        return ave > thres

    def body_fun(dist):
        return dist + 1

    klim = jax.lax.while_loop(
        cond_fun=cond_fun,
        body_fun=body_fun,
        init_val=ngrid // 5,
    )
    return klim


def detect_sources(
    img_data,
    psf_data,
    gsigma,
    thres=0.04,
    thres2=-0.01,
    klim=-1.0,
    pixel_scale=1.0,
    structured=False,
):
    """Returns the coordinates of detected sources

    Args:
        img_data (ndarray):      observed image
        psf_data (ndarray):      PSF image [must be well-centered]
        gsigma (float):         sigma of the Gaussian smoothing kernel in
                                *Fourier* space
        thres (float):          detection threshold
        thres2 (float):         peak identification difference threshold
        klim (float):           limiting wave number in Fourier space
        pixel_scale (float):    pixel scale in arcsec [set to 1]
        structured (bool):      whether return structured array
    Returns:
        coords (ndarray):       peak values and the shear responses
    """

    psf_data = jnp.array(psf_data, dtype="<f8")
    assert (
        img_data.shape == psf_data.shape
    ), "image and PSF should have the same\
            shape. Please do padding before using this function."
    img_conv = convolve2gausspsf(img_data, psf_data, gsigma, klim)
    # the coordinates is not given, so we do another detection
    if not isinstance(thres, (int, float)):
        raise ValueError("thres must be float, but now got %s" % type(thres))
    if not isinstance(thres2, (int, float)):
        raise ValueError("thres2 must be float, but now got %s" % type(thres))
    if not thres > 0.0:
        raise ValueError("detection threshold should be positive")
    if not thres2 <= 0.0:
        raise ValueError("difference threshold should be non-positive")
    dd = find_peaks(img_conv, thres, thres2).T
    if not structured:
        return dd
    else:
        return results_coords(dd)


class measure_base:
    """A base class for measurement, which is extended to measure_source
    and measure_noise_cov
    Args:
        psf_data (ndarray):     an average PSF image used to initialize the task
        nnord (int):            the highest order of Shapelets radial
                                components [default: 4]
        sigma_arcsec (float):   Shapelet kernel size
        pix_scale (float):      pixel scale in arcsec [default: 0.168 arcsec]
        sigma_detect (float):   detection kernel size
    """

    _DefaultName = "measure_base"

    def __init__(
        self,
        psf_data,
        sigma_arcsec,
        nnord=4,
        pix_scale=0.168,
        sigma_detect=None,
    ):
        if sigma_arcsec <= 0.0 or sigma_arcsec > 5.0:
            raise ValueError("sigma_arcsec should be positive and less than 5 arcsec")
        if sigma_detect is None:
            sigma_detect = sigma_arcsec
        self.ngrid = psf_data.shape[0]
        self.nnord = nnord

        # Preparing PSF
        psf_data = jnp.array(psf_data, dtype="<f8")
        self.psf_fourier = jnp.fft.fftshift(jnp.fft.fft2(psf_data))
        self.psf_pow = jnp.array(get_fourier_pow(psf_data))  # scaffolding: imgutil.get_fourier_pow, module prefix dropped

        # A few import scales
        self.pix_scale = pix_scale  # this is only used to normalize basis functions
        self._dk = 2.0 * jnp.pi / self.ngrid  # assuming pixel scale is 1

        # the following two assumes pixel_scale = 1
        self.sigmaF = self.pix_scale / sigma_arcsec
        self.sigmaF_det = self.pix_scale / sigma_detect
        sigma_pixf = self.sigmaF / self._dk
        sigma_pixf_det = self.sigmaF_det / self._dk
        logging.info(
            "Shapelet kernel in configuration space: sigma= %.4f arcsec"
            % (sigma_arcsec)
        )
        logging.info(
            "Detection kernel in configuration space: sigma= %.4f arcsec"
            % (sigma_detect)
        )
        # effective nyquest wave number
        self.klim_pix = get_klim(  # scaffolding: imgutil.get_klim, module prefix dropped
            self.psf_pow, (sigma_pixf + sigma_pixf_det) / 2.0 / jnp.sqrt(2.0)
        )  # in pixel units
        self.klim = self.klim_pix * self._dk  # assume pixel scale is 1
        # index bounds
        self._indx = jnp.arange(
            self.ngrid // 2 - self.klim_pix,
            self.ngrid // 2 + self.klim_pix + 1,
        )
        self._indy = self._indx[:, None]
        self._ind2d = jnp.ix_(self._indx, self._indx)
        return


class measure_source(measure_base):  # scaffolding: stand-in; the shapelet measurement of the subclass is cut
    pass  # scaffolding


def simulate_gal_psf(scale, ind0, rcut):  # scaffolding: stand-in for the galsim Moffat PSF and fpfs.simutil.make_basic_sim
    yy, xx = np.mgrid[0:64, 0:64] - 32.0  # scaffolding
    psf_data = np.exp(-(yy**2 + xx**2) / 2.0 / (0.6 / 2.355 / scale) ** 2)  # scaffolding
    psf_data = psf_data / psf_data.sum()  # scaffolding
    psf_data = psf_data[32 - rcut : 32 + rcut, 32 - rcut : 32 + rcut]  # scaffolding
    gy, gx = np.mgrid[0:64, 0:256]  # scaffolding
    gal_data = np.zeros((64, 256))  # scaffolding
    for cx in np.arange(32, 256, 64):  # scaffolding
        gal_data += np.exp(-((gy - 32) ** 2 + (gx - cx) ** 2) / 2.0 / (2.0 + 0.1 * ind0) ** 2)  # scaffolding
    return jnp.asarray(gal_data), psf_data, None  # scaffolding


def do_test(scale, ind0, rcut):
    thres = 1e-5
    gal_data, psf_data, coords = simulate_gal_psf(scale, ind0, rcut)
    # test shear estimation
    fpfs_task = measure_source(psf_data, sigma_arcsec=0.7)  # scaffolding: fpfs.image. prefix dropped
    # (shear estimation part of the test cut: scaffolding)
    # test detection
    p1 = 32 - rcut
    p2 = 64 * 2 - rcut
    psf_data2 = jnp.pad(psf_data, ((p1, p1), (p2, p2)))
    coords2 = detect_sources(  # scaffolding: fpfs.image. prefix dropped
        gal_data,
        psf_data2,
        gsigma=0.24,
        thres=0.01,
        thres2=0.00,
        klim=fpfs_task.klim,
    )
    return


def test_hsc():
    print("Testing HSC-like image")
    do_test(0.168, 2, 16)
    do_test(0.168, 4, 32)
    return


try:  # scaffolding
    test_hsc()  # scaffolding
    _report({"jit(convolve2gausspsf)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
