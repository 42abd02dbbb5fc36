# source: https://github.com/lenstronomy/JAXtronomy/commit/c44886c43e05b528ea9adac6aba959e7978aacca
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: the commit adds k (argument 3) to static_argnums, so 'k == i' compares Python ints and the jitted method compiles once per selected component.
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
from jax import jit
import jax.numpy as jnp


class LensedPositions:  # scaffolding: a LENSED_POSITION model returning its image positions
    def image_position(self, kwargs_ps, kwargs_lens=None, magnification_limit=None,
                       kwargs_lens_eqn_solver=None, additional_images=False):
        return jnp.asarray(kwargs_ps["ra_image"]), jnp.asarray(kwargs_ps["dec_image"])


class PointSource(object):
    def __init__(self, n_sources=2):  # scaffolding: only the attributes image_position reads
        self._point_source_list = [LensedPositions() for _ in range(n_sources)]
        self._magnification_limit = None
        self._kwargs_lens_eqn_solver = {}

    @partial(jit, static_argnums=(0, 3, 5))
    def image_position(
        self,
        kwargs_ps,
        kwargs_lens,
        k=None,
        original_position=False,
        additional_images=False,
    ):
        """Image positions as observed on the sky of the point sources.

        :param kwargs_ps: point source parameter keyword argument list
        :param kwargs_lens: lens model keyword argument list
        :param k: None or int; only returns a subset of the model predictions
        :param original_position: boolean (only applies to 'LENSED_POSITION' models),
            returns the image positions in the model parameters and does not re-compute
            images (which might be differently ordered) in case of the lens equation
            solver
        :param additional_images: if True, solves the lens equation for additional
            images
        :type additional_images: bool
        :return: list of: list of image positions per point source model component
        """
        x_image_list = []
        y_image_list = []
        for i, model in enumerate(self._point_source_list):
            if k is None or k == i:
                kwargs = kwargs_ps[i]
                x_image, y_image = model.image_position(
                    kwargs,
                    kwargs_lens,
                    magnification_limit=self._magnification_limit,
                    kwargs_lens_eqn_solver=self._kwargs_lens_eqn_solver,
                    additional_images=additional_images,
                )
                ## this takes action when new images are computed not necessarily in order
                # if (
                #    original_position is True
                #    and additional_images is True
                #    and self.point_source_type_list[i] == "LENSED_POSITION"
                # ):
                #    x_o, y_o = kwargs["ra_image"], kwargs["dec_image"]
                #    x_image, y_image = _sort_position_by_original(
                #        x_o, y_o, x_image, y_image
                #    )

                x_image_list.append(x_image)
                y_image_list.append(y_image)
        return x_image_list, y_image_list


point_source = PointSource()  # scaffolding
kwargs_lens = [{"theta_E": 1.0}]  # scaffolding
kwargs_ps = [{"ra_image": [1.0, -0.9], "dec_image": [0.2, -0.3]}, {"ra_image": [0.5, -1.1], "dec_image": [0.8, -0.4]}]  # scaffolding
try:  # scaffolding
    for k in [0, 1]:  # scaffolding: image positions of one point-source component at a time
        x_image_list, y_image_list = point_source.image_position(kwargs_ps, kwargs_lens, k=k)  # scaffolding
    _report({"jit(image_position)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
