# source: https://github.com/lenstronomy/JAXtronomy/commit/2d14825418dafb34c993bcdc049d39bde7978534
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the commit converts k_list[i] to a tuple before passing it as the static k, so the jitted likelihood compiles once for two lens-parameter sets.
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
import jax
from jax import jit, lax, debug, numpy as jnp

jax.config.update("jax_enable_x64", True)


class LensModel:  # scaffolding: SIS + external shear single plane with the jitted ray_shooting/hessian signatures
    profiles = ("SIS", "SHEAR")

    def alpha(self, x, y, kwargs, k=None):  # scaffolding
        ks = range(len(self.profiles)) if k is None else ((k,) if isinstance(k, int) else k)
        ax, ay = 0.0, 0.0
        for i in ks:
            if self.profiles[i] == "SIS":
                r = jnp.sqrt(x**2 + y**2)
                ax, ay = ax + kwargs[i]["theta_E"] * x / r, ay + kwargs[i]["theta_E"] * y / r
            else:
                ax, ay = ax + kwargs[i]["gamma1"] * x + kwargs[i]["gamma2"] * y, ay + kwargs[i]["gamma2"] * x - kwargs[i]["gamma1"] * y
        return ax, ay

    @partial(jit, static_argnums=(0, 4))
    def ray_shooting(self, x, y, kwargs, k=None):
        dx, dy = self.alpha(x, y, kwargs, k=k)
        return x - dx, y - dy

    @partial(jit, static_argnums=(0, 4))
    def hessian(self, x, y, kwargs, k=None):  # scaffolding: by autodiff of alpha
        f_xx, f_xy = jax.grad(lambda x_: self.alpha(x_, y, kwargs, k)[0])(x), jax.grad(lambda y_: self.alpha(x, y_, kwargs, k)[0])(y)
        f_yx, f_yy = jax.grad(lambda x_: self.alpha(x_, y, kwargs, k)[1])(x), jax.grad(lambda y_: self.alpha(x, y_, kwargs, k)[1])(y)
        return f_xx, f_xy, f_yx, f_yy


class PointSource:  # scaffolding: one LENSED_POSITION source, each image ray-traced through both lens profiles
    point_source_type_list = ["LENSED_POSITION"]

    def __init__(self, lens_model):
        self._lens_model = lens_model

    def k_list(self, k):
        return [[0, 1], [0, 1], [0, 1], [0, 1]]

    def source_position(self, kwargs_ps, kwargs_lens):
        xs, ys = self._lens_model.ray_shooting(kwargs_ps[0]["ra_image"], kwargs_ps[0]["dec_image"], kwargs_lens)
        return [jnp.mean(xs)], [jnp.mean(ys)]


def image2source_covariance(A, Sigma_theta):
    """
    computes error covariance in the source plane
    A: Hessian lensing matrix
    Sigma_theta: image plane covariance matrix of uncertainties
    """
    ATSigma = jnp.matmul(A.T, Sigma_theta)
    return jnp.matmul(ATSigma, A)


class PositionLikelihood(object):
    def __init__(self, point_source_class, lens_model):  # scaffolding: only the attributes used below
        self._pointSource = point_source_class
        self._lensModel = lens_model

    @partial(jit, static_argnums=(0, 5))
    def source_position_likelihood(
        self,
        kwargs_lens,
        kwargs_ps,
        sigma,
        hard_bound_rms=None,
        verbose=False,
    ):
        """Computes a likelihood/punishing factor of how well the source positions of
        multiple images match given the image position and a lens model. The likelihood
        level is computed in respect of a displacement in the image plane and transposed
        through the Hessian into the source plane.

        :param kwargs_lens: lens model keyword argument list
        :param kwargs_ps: point source keyword argument list
        :param sigma: 1-sigma Gaussian uncertainty in the image plane
        :param hard_bound_rms: hard bound deviation between the mapping of the images
            back to the source plane (in source frame)
        :param verbose: bool, if True provides print statements with useful information.
        :return: log likelihood of the model reproducing the correct image positions
            given an image position uncertainty
        """
        if len(kwargs_ps) < 1:
            return 0
        logL = 0
        source_x, source_y = self._pointSource.source_position(kwargs_ps, kwargs_lens)
        # redshift_list = self._pointSource._redshift_list

        for k in range(len(kwargs_ps)):
            if (
                "ra_image" in kwargs_ps[k]
                and self._pointSource.point_source_type_list[k] == "LENSED_POSITION"
            ):
                x_image = kwargs_ps[k]["ra_image"]
                y_image = kwargs_ps[k]["dec_image"]
                # self._lensModel.change_source_redshift(redshift_list[k])
                # calculating the individual source positions from the image positions
                k_list = self._pointSource.k_list(k)
                for i in range(len(x_image)):
                    if k_list is not None:
                        k_lens = tuple(k_list[i])
                    else:
                        k_lens = None
                    x_source_i, y_source_i = self._lensModel.ray_shooting(
                        x_image[i], y_image[i], kwargs_lens, k=k_lens
                    )
                    f_xx, f_xy, f_yx, f_yy = self._lensModel.hessian(
                        x_image[i], y_image[i], kwargs_lens, k=k_lens
                    )
                    A = jnp.array([[1 - f_xx, -f_xy], [-f_yx, 1 - f_yy]], dtype=float)
                    Sigma_theta = jnp.array([[1, 0], [0, 1]], dtype=float) * sigma**2
                    Sigma_beta = image2source_covariance(A, Sigma_theta)
                    delta = jnp.array(
                        [source_x[k] - x_source_i, source_y[k] - y_source_i],
                        dtype=float,
                    )
                    if hard_bound_rms is not None:
                        bound_hit = jnp.where(
                            delta[0] ** 2 + delta[1] ** 2 > hard_bound_rms**2,
                            True,
                            False,
                        )
                        logL = jnp.where(bound_hit, logL - 10**3, logL)
                        if verbose is True:

                            def true_fun():
                                debug.print(
                                    "Source positions of image {i} of model {k} do not match to the same source position to the required "
                                    "precision. Achieved: {delta}, Required: {hard_bound_rms}.",
                                    i=i,
                                    k=k,
                                    delta=delta,
                                    hard_bound_rms=hard_bound_rms,
                                )

                            def false_fun():
                                pass

                            lax.cond(bound_hit, true_fun, false_fun)
                    Sigma_inv = jnp.linalg.inv(Sigma_beta)
                    not_invertible = jnp.any(jnp.isinf(Sigma_inv))
                    logL = jnp.where(
                        not_invertible,
                        -(10**15),
                        logL - delta.T.dot(Sigma_inv.dot(delta)) / 2,
                    )
        return logL


lens_model = LensModel()  # scaffolding
likelihood = PositionLikelihood(PointSource(lens_model), lens_model)  # scaffolding
kwargs_ps = [{"ra_image": jnp.array([1.1, -0.9, 0.2, -0.1]), "dec_image": jnp.array([0.3, -0.2, 1.0, -1.05])}]  # scaffolding
try:  # scaffolding
    for theta_E in [1.0, 1.02]:  # scaffolding
        kwargs_lens = [{"theta_E": theta_E}, {"gamma1": 0.03, "gamma2": -0.01}]  # scaffolding
        likelihood.source_position_likelihood(kwargs_lens, kwargs_ps, 0.005).block_until_ready()  # scaffolding
    _report({"jit(source_position_likelihood)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
