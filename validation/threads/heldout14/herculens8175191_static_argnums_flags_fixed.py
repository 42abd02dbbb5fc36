# source: https://github.com/Herculens/herculens/commit/8175191070ba7e70dafb527b4a4ccf655bad1d3f
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's fix: static_argnums=(0, 4, 5, 6) marks self and the three boolean flags static, the parameter lists are traced pytrees, and three calls with new parameter values share one compile.

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


# --- end harness ---
from functools import partial

import jax.numpy as np
from jax import jit


def _gaussian(x, y, amp, sigma, center_x, center_y):  # scaffolding: light profile
    return amp * np.exp(-((x - center_x) ** 2 + (y - center_y) ** 2) / (2 * sigma ** 2))


class LightModel:  # scaffolding: sum of Gaussian profiles
    def __init__(self, light_model_list):
        self.profile_type_list = light_model_list

    def surface_brightness(self, x, y, kwargs_list, k=None):
        return sum(_gaussian(x, y, **kw) for kw in kwargs_list)


class Image2SourceMapping:  # scaffolding: singular isothermal sphere ray shooting
    def __init__(self, source_model_class):
        self.source = source_model_class

    def image_flux_joint(self, x, y, kwargs_lens, kwargs_source, k=None):
        for kw in kwargs_lens:
            dx, dy = x - kw["center_x"], y - kw["center_y"]
            r = np.sqrt(dx ** 2 + dy ** 2) + 1e-8
            x, y = x - kw["theta_E"] * dx / r, y - kw["theta_E"] * dy / r
        return self.source.surface_brightness(x, y, kwargs_source, k=k)


class ImageNumerics:  # scaffolding: pixel grid and a 3x3 box PSF
    def __init__(self, npix=20):
        c = np.linspace(-2.0, 2.0, npix)
        self.coordinates_evaluate = np.meshgrid(c, c)

    def re_size_convolve(self, image, unconvolved=False):
        if unconvolved:
            return image
        k = np.ones((3, 3)) / 9.0
        from jax.scipy.signal import convolve2d
        return convolve2d(image, k, mode="same")


class Grid:  # scaffolding
    num_pixel_axes = (20, 20)


class LensImage(object):
    """Generate lensed images from source light and lens mass/light models."""

    def __init__(self):  # scaffolding: the grid/PSF/model classes built directly
        self.Grid = Grid()
        self.ImageNumerics = ImageNumerics()
        self.SourceModel = LightModel(["GAUSSIAN"])
        self.LensLightModel = LightModel(["GAUSSIAN"])
        self.source_mapping = Image2SourceMapping(self.SourceModel)

    def source_surface_brightness(self, kwargs_source, kwargs_lens=None,
                                  unconvolved=False, de_lensed=False, k=None):
        if len(self.SourceModel.profile_type_list) == 0:
            return np.zeros((self.Grid.num_pixel_axes))
        ra_grid, dec_grid = self.ImageNumerics.coordinates_evaluate
        if de_lensed is True:
            source_light = self.SourceModel.surface_brightness(ra_grid, dec_grid, kwargs_source, k=k)
        else:
            source_light = self.source_mapping.image_flux_joint(ra_grid, dec_grid, kwargs_lens, kwargs_source, k=k)
        source_light_final = self.ImageNumerics.re_size_convolve(source_light, unconvolved=unconvolved)
        return source_light_final

    def lens_surface_brightness(self, kwargs_lens_light, unconvolved=False, k=None):
        ra_grid, dec_grid = self.ImageNumerics.coordinates_evaluate
        lens_light = self.LensLightModel.surface_brightness(ra_grid, dec_grid, kwargs_lens_light, k=k)
        lens_light_final = self.ImageNumerics.re_size_convolve(lens_light, unconvolved=unconvolved)
        return lens_light_final

    @partial(jit, static_argnums=(0, 4, 5, 6))
    def model(self, kwargs_lens=None, kwargs_source=None,
              kwargs_lens_light=None, unconvolved=False, source_add=True,
              lens_light_add=True):
        model = np.zeros((self.Grid.num_pixel_axes))
        if source_add is True:
            model += self.source_surface_brightness(kwargs_source, kwargs_lens, unconvolved=unconvolved)
        if lens_light_add is True:
            model += self.lens_surface_brightness(kwargs_lens_light, unconvolved=unconvolved)
        return model


# scaffolding: the usual herculens call, model(**kwargs) with lists of parameter dicts
lens_image = LensImage()
kwargs_true = dict(
    kwargs_lens=[{"theta_E": np.asarray(1.0), "center_x": np.asarray(0.0), "center_y": np.asarray(0.0)}],
    kwargs_source=[{"amp": np.asarray(10.0), "sigma": np.asarray(0.2), "center_x": np.asarray(0.05), "center_y": np.asarray(0.0)}],
    kwargs_lens_light=[{"amp": np.asarray(5.0), "sigma": np.asarray(0.5), "center_x": np.asarray(0.0), "center_y": np.asarray(0.0)}],
)
calls = 0
try:
    for scale in (1.0, 1.1, 1.2):
        kwargs_true["kwargs_lens"][0]["theta_E"] = np.asarray(scale)
        image = lens_image.model(**kwargs_true)
        calls += 1
    _report({"jit(model)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
