# source: https://github.com/Herculens/herculens/commit/e720aad6e652dfd0e7776d0f4d68634a59162980
# expect: bad-static-spec at line 64
# runtime: COMPILES 2 CALLS 2
# why: LensImage.model is jitted with only self static, so the unconvolved/source_add/lens_light_add flags arrive as tracers and every 'is True' test on them is False: the unconvolved=True call silently returns the convolved image.
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


import copy
import jax.numpy as np
from functools import partial
from jax import jit
import jax  # scaffolding


class LensImage(object):
    # scaffolding: constructor, grid, numerics and light/lens models cut down to a
    # Gaussian source behind a singular isothermal sphere, a Gaussian lens light and a 3x3 PSF
    def __init__(self, num_pix=32, pixel_width=0.1):  # scaffolding
        x = (np.arange(num_pix) - num_pix / 2 + 0.5) * pixel_width  # scaffolding
        self.ra_grid, self.dec_grid = np.meshgrid(x, x)  # scaffolding
        self.num_pixel_axes = (num_pix, num_pix)  # scaffolding
        self.kernel = np.array([[1., 2., 1.], [2., 4., 2.], [1., 2., 1.]]) / 16.  # scaffolding

    def re_size_convolve(self, image, unconvolved=False):  # scaffolding: numerics.py's test
        if unconvolved is True:  # scaffolding
            return image  # scaffolding
        return jax.scipy.signal.convolve2d(image, self.kernel, mode='same')  # scaffolding

    def source_surface_brightness(self, kwargs_source, kwargs_lens=None,
                                  unconvolved=False, de_lensed=False, k=None):
        r = np.sqrt(self.ra_grid ** 2 + self.dec_grid ** 2) + 1e-6  # scaffolding: SIS deflection
        beta_x = self.ra_grid - kwargs_lens[0]['theta_E'] * self.ra_grid / r  # scaffolding
        beta_y = self.dec_grid - kwargs_lens[0]['theta_E'] * self.dec_grid / r  # scaffolding
        s = kwargs_source[0]  # scaffolding
        source_light = s['amp'] * np.exp(-((beta_x - s['center_x']) ** 2 + (beta_y - s['center_y']) ** 2) / (2 * s['sigma'] ** 2))  # scaffolding
        source_light_final = self.re_size_convolve(source_light, unconvolved=unconvolved)
        return source_light_final

    def lens_surface_brightness(self, kwargs_lens_light, unconvolved=False, k=None):
        l = kwargs_lens_light[0]  # scaffolding
        lens_light = l['amp'] * np.exp(-(self.ra_grid ** 2 + self.dec_grid ** 2) / (2 * l['sigma'] ** 2))  # scaffolding
        lens_light_final = self.re_size_convolve(lens_light, unconvolved=unconvolved)
        return lens_light_final

    @partial(jit, static_argnums=(0))
    def model(self, kwargs_lens=None, kwargs_source=None,
              kwargs_lens_light=None, unconvolved=False, source_add=True,
              lens_light_add=True):
        """

        make an image from parameter values

        :param kwargs_lens: list of keyword arguments corresponding to the superposition of different lens profiles
        :param kwargs_source: list of keyword arguments corresponding to the superposition of different source light profiles
        :param kwargs_lens_light: list of keyword arguments corresponding to different lens light surface brightness profiles
        :param kwargs_ps: keyword arguments corresponding to "other" parameters, such as external shear and point source image positions
        :param unconvolved: if True: returns the unconvolved light distribution (prefect seeing)
        :param source_add: if True, compute source, otherwise without
        :param lens_light_add: if True, compute lens light, otherwise without
        :param point_source_add: if True, add point sources, otherwise without
        :return: 2d array of surface brightness pixels of the simulation
        """
        model = np.zeros((self.Grid.num_pixel_axes))
        if source_add is True:
            model += self.source_surface_brightness(kwargs_source, kwargs_lens, unconvolved=unconvolved)
        if lens_light_add is True:
            model += self.lens_surface_brightness(kwargs_lens_light, unconvolved=unconvolved)
        return model

    @property
    def Grid(self):  # scaffolding
        return self


lens_image = LensImage()  # scaffolding
kwargs = dict(  # scaffolding
    kwargs_lens=[{'theta_E': 1.0}],
    kwargs_source=[{'amp': 10.0, 'sigma': 0.1, 'center_x': 0.05, 'center_y': 0.0}],
    kwargs_lens_light=[{'amp': 5.0, 'sigma': 0.3}],
)
try:  # scaffolding
    convolved = lens_image.model(**kwargs)  # scaffolding
    sharp = lens_image.model(**kwargs, unconvolved=True)  # scaffolding: the model without PSF, e.g. for plotting
    print("unconvolved call differs from convolved:", bool(np.abs(sharp - convolved).max() > 1e-3))  # scaffolding
    _report({"jit(model)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
