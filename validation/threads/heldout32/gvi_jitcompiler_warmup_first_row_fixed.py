# source: https://github.com/jswu18/gvi-gaussian-process/commit/d24d9ab3c02ff4d5c085b23a2c058ba6db5c6dac
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit drops JitCompiler and jits a lambda over (parameters, x, y) once in __init__, so the risk compiles once for the full-size data and is reused for all four calls.

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


from abc import ABC, abstractmethod
from typing import Any, Callable, Dict, NamedTuple, Union

import jax
import jax.numpy as jnp
import jax.scipy as jsp
import numpy as np  # scaffolding

jax.config.update("jax_enable_x64", True)  # scaffolding: the experiments run in float64
JaxFloatType = Any  # scaffolding: src.utils.custom_types


# --- src/empirical_risks/base.py ---
class EmpiricalRiskBase(ABC):
    def __init__(self, gp):
        self.gp = gp
        self._jit_compiled_calculate_empirical_risk = jax.jit(
            lambda parameters, x, y: self._calculate_empirical_risk(
                parameters=parameters,
                x=x,
                y=y,
            )
        )

    @abstractmethod
    def _calculate_empirical_risk(
        self,
        parameters,
        x: jnp.ndarray,
        y: jnp.ndarray,
    ) -> float:
        raise NotImplementedError

    def calculate_empirical_risk(
        self,
        parameters,
        x: jnp.ndarray,
        y: jnp.ndarray,
    ) -> float:
        if not isinstance(parameters, self.gp.Parameters):
            parameters = self.gp.generate_parameters(parameters)
        return self._jit_compiled_calculate_empirical_risk(
            parameters.dict(),
            *(x, y),
        )


# --- src/empirical_risks/negative_log_likelihood.py ---
class NegativeLogLikelihood(EmpiricalRiskBase):
    def __init__(self, gp):
        super().__init__(gp)

    def _calculate_empirical_risk(
        self,
        parameters,
        x: jnp.ndarray,
        y: jnp.ndarray,
    ) -> JaxFloatType:
        gaussian = self.gp.calculate_prediction_gaussian(
            parameters, x=x, full_covariance=False
        )
        if self.gp.kernel.number_output_dimensions > 1:
            return jnp.float64(
                jnp.mean(
                    jax.vmap(
                        lambda y_class, mean_class, covariance_class: jnp.mean(
                            jax.vmap(
                                lambda y_, loc_, scale_: -jsp.stats.norm.logpdf(
                                    y_,
                                    loc=loc_,
                                    scale=scale_,
                                )
                            )(y_class, mean_class, jnp.sqrt(covariance_class))
                        )
                    )(y.T, gaussian.mean, gaussian.covariance)
                )
            )
        else:
            return jnp.float64(
                jnp.mean(
                    jax.vmap(
                        lambda y_, loc_, scale_: -jsp.stats.norm.logpdf(
                            y_,
                            loc=loc_,
                            scale=scale_,
                        )
                    )(
                        y.reshape(-1),
                        gaussian.mean.reshape(-1),
                        jnp.sqrt(gaussian.covariance.reshape(-1)),
                    )
                )
            )


# scaffolding: a minimal exact GP standing in for src.gps (RBF kernel, fixed training points)
class _Gaussian(NamedTuple):  # scaffolding
    mean: jnp.ndarray
    covariance: jnp.ndarray


class _Kernel:  # scaffolding
    number_output_dimensions = 1


class _Parameters:  # scaffolding
    def __init__(self, d):
        self.d = d

    def dict(self):
        return self.d


class _GP:  # scaffolding
    Parameters = _Parameters
    kernel = _Kernel()

    def __init__(self, x_train, y_train):
        self.x_train, self.y_train = x_train, y_train

    def generate_parameters(self, d):
        return _Parameters(d)

    def calculate_prediction_gaussian(self, parameters, x, full_covariance):
        ls, var, noise = parameters["log_length_scale"], parameters["log_variance"], parameters["log_noise"]
        k = lambda a, b: jnp.exp(var) * jnp.exp(-0.5 * jnp.sum((a[:, None] - b[None]) ** 2, -1) / jnp.exp(ls) ** 2)
        kxx = k(self.x_train, self.x_train) + jnp.exp(noise) * jnp.eye(self.x_train.shape[0])
        kxs = k(self.x_train, x)
        sol = jnp.linalg.solve(kxx, kxs)
        mean = sol.T @ self.y_train
        cov = jnp.exp(var) - jnp.sum(kxs * sol, 0) + jnp.exp(noise)
        return _Gaussian(mean, cov)


rng = np.random.default_rng(0)  # scaffolding
x = jnp.asarray(rng.uniform(-3, 3, size=(50, 1)))  # scaffolding
y = jnp.sin(x[:, 0])  # scaffolding
gp = _GP(x[:20], y[:20])  # scaffolding
nll = NegativeLogLikelihood(gp)
for step in range(4):  # scaffolding: e.g. risk evaluated during hyperparameter tuning
    parameters = {"log_length_scale": jnp.array(0.1 * step), "log_variance": jnp.array(0.0), "log_noise": jnp.array(-2.0)}
    risk = nll.calculate_empirical_risk(parameters, x, y)
_report({"jit(<lambda>)"}, 4)
