# source: https://github.com/lenstronomy/JAXtronomy/commit/aadd592126d7f97d6db1f8234b140dea634d43ff
# expect: unhashable-static at line 38
# runtime: ERROR ValueError
# why: LinearBasis.update_linear marks the running index i static, but it returns i as a traced value, so the second call inside the jitted update_linear_kwargs passes a tracer as a static argument and JAX refuses to hash it.
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
from jax import jit, numpy as jnp
import numpy as np


class LinearBasis:
    # scaffolding: LightModelBase cut down to the profile list used by update_linear
    def __init__(self, light_model_list):
        self.profile_type_list = light_model_list
        self.func_list = [None] * len(light_model_list)

    @partial(jit, static_argnums=(0, 2), inline=True)
    def update_linear(self, param, i, kwargs_list):
        """

        :param param: array of linear amplitude coefficients in the order of the linear minimization of the ImSim module
        :param i: index of first coefficient to start reading out the linear parameters associated with the model
         components of this class
        :param kwargs_list: list of keyword arguments of the model components
        :return: kwargs list with over-written or added 'amp' parameters according to the coefficients in param
        """
        for k, model in enumerate(self.profile_type_list):
            if model in [
                "SERSIC",
                "SERSIC_ELLIPSE",
                "SERSIC_ELLIPSE_Q_PHI",
                "CORE_SERSIC",
                "HERNQUIST",
                "PJAFFE",
                "PJAFFE_ELLIPSE",
                "HERNQUIST_ELLIPSE",
                "GAUSSIAN",
                "GAUSSIAN_ELLIPSE",
                "POWER_LAW",
                "NIE",
                "CHAMELEON",
                "DOUBLE_CHAMELEON",
                "TRIPLE_CHAMELEON",
                "UNIFORM",
                "INTERPOL",
                "ELLIPSOID",
                "LINEAR",
                "LINEAR_ELLIPSE",
                "LINE_PROFILE",
            ]:
                kwargs_list[k]["amp"] = param[i]
                i += 1
            elif model in ["MULTI_GAUSSIAN", "MULTI_GAUSSIAN_ELLIPSE"]:
                num_param = len(kwargs_list[k]["sigma"])
                kwargs_list[k]["amp"] = param[i : i + num_param]
                i += num_param
            elif model in [
                "SHAPELETS",
                "SHAPELETS_POLAR",
                "SHAPELETS_POLAR_EXP",
                "SHAPELETS_ELLIPSE",
            ]:
                num_param = self.func_list[k].num_param
                kwargs_list[k]["amp"] = param[i : i + num_param]
                i += num_param
            # elif model in ["SLIT_STARLETS", "SLIT_STARLETS_GEN2"]:
            #     n_scales = kwargs_list[k]["n_scales"]
            #     n_pixels = kwargs_list[k]["n_pixels"]
            #     num_param = int(n_scales * n_pixels)
            #     kwargs_list[k]["amp"] = param[i : i + num_param]
            #     i += num_param
            else:
                raise ValueError("model type %s not valid!" % model)
        return kwargs_list, i


class ImageLinearFit:  # scaffolding: only the two light models used below
    def __init__(self, source_model, lens_light_model):
        self.SourceModel = source_model
        self.LensLightModel = lens_light_model

    @partial(jit, static_argnums=(0,))
    def update_linear_kwargs(
        self, param, kwargs_lens, kwargs_source, kwargs_lens_light, kwargs_ps
    ):
        i = 0
        kwargs_source, i = self.SourceModel.update_linear(
            param, i, kwargs_list=kwargs_source
        )
        kwargs_lens_light, i = self.LensLightModel.update_linear(
            param, i, kwargs_list=kwargs_lens_light
        )
        # kwargs_ps, i = self.PointSource.update_linear(param, i, kwargs_ps, kwargs_lens)
        return kwargs_lens, kwargs_source, kwargs_lens_light, kwargs_ps


fit = ImageLinearFit(LinearBasis(["SERSIC"]), LinearBasis(["MULTI_GAUSSIAN"]))  # scaffolding
kwargs_lens = [{"theta_E": 1.0}]  # scaffolding
kwargs_source = [{"R_sersic": 0.3, "n_sersic": 2.0}]  # scaffolding
kwargs_lens_light = [{"sigma": [0.1, 0.5, 1.0]}]  # scaffolding
try:  # scaffolding
    for scale in [1.0, 2.0]:  # scaffolding: two linear solutions
        param = scale * jnp.array([3.0, 1.0, 0.5, 0.2])  # scaffolding
        out = fit.update_linear_kwargs(param, kwargs_lens, kwargs_source, kwargs_lens_light, [])  # scaffolding
    _report({"jit(update_linear_kwargs)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
