# source: https://github.com/oughtinc/ergo/pull/342
# expect: jit-in-loop-or-body at line 102
# runtime: COMPILES 6 CALLS 30
# why: from_conditions defines a fresh loss closure and wraps it in jit (and jit(grad(...))) on every call, so each of three same-shape fits compiles loss and its gradient again: 6 compiles for 30 calls.
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


from dataclasses import dataclass  # scaffolding
from typing import List, Optional, Sequence  # scaffolding

import jax.numpy as np
import numpy as onp
from jax import grad, jit, nn, scipy, vmap


class Logistic:  # scaffolding: ergo.distributions.logistic, cut down
    @staticmethod
    def params_logpdf(x, loc, scale):
        y = (x - loc) / scale
        return -y - 2.0 * np.log1p(np.exp(-y)) - np.log(scale)


@dataclass
class HistogramCondition:  # the condition as it was before the PR (a list of dicts)
    histogram: list
    weight: float = 1.0

    def loss(self, dist):
        xs = np.array([entry["x"] for entry in self.histogram])
        densities = np.array([entry["density"] for entry in self.histogram])
        entry_loss_fn = lambda x, density: (density - dist.pdf1(x)) ** 2  # noqa: E731
        total_loss = np.sum(vmap(entry_loss_fn)(xs, densities))
        return self.weight * total_loss / len(self.histogram)

    def normalize(self, scale_min: float, scale_max: float):  # scaffolding: scale is [0, 1] here
        return self


class LogisticMixture:  # scaffolding: Mixture/LSMixture/LogisticMixture, cut down
    def __init__(self, params):
        self.params = params

    @classmethod
    def from_params(cls, params):
        return cls(params)

    @staticmethod
    def initialize_params(num_components):
        return onp.tile(onp.array([0.5, 0.1, 0.0]), num_components)

    def pdf1(self, datum):
        structured_params = self.params.reshape((-1, 3))
        weights = nn.log_softmax(structured_params[:, 2])
        scores = Logistic.params_logpdf(datum, structured_params[:, 0], np.maximum(structured_params[:, 1], 0.01)) + weights
        return np.exp(scipy.special.logsumexp(scores))

    def denormalize(self, scale_min, scale_max):  # scaffolding
        return self

    @classmethod
    def from_conditions(
        cls,
        conditions: List[HistogramCondition],
        initial_dist=None,
        num_components: Optional[int] = None,
        verbose=False,
        scale_min=0,
        scale_max=1,
        init_tries=100,
        opt_tries=10,
    ):
        normalized_conditions = [
            condition.normalize(scale_min, scale_max) for condition in conditions
        ]

        def loss(params):
            dist = cls.from_params(params)
            total_loss = sum(
                condition.loss(dist) for condition in normalized_conditions
            )
            return total_loss * 100

        loss = jit(loss)
        jac = jit(grad(loss))
        normalized_mixture = cls.from_loss(
            loss=loss,
            jac=jac,
            initial_dist=initial_dist,
            num_components=num_components,
            verbose=verbose,
            init_tries=init_tries,
            opt_tries=opt_tries,
        )
        return normalized_mixture.denormalize(scale_min, scale_max)

    @classmethod
    def from_loss(cls, loss, jac, initial_dist=None, num_components=None, verbose=False, init_tries=100, opt_tries=10):
        params = np.asarray(cls.initialize_params(num_components))  # scaffolding: a few gradient steps instead of ergo's minimize
        for _ in range(5):  # scaffolding
            loss(params)  # scaffolding
            params = params - 1e-3 * jac(params)  # scaffolding
        return cls.from_params(params)


# scaffolding: the app fits a mixture for each question the user edits; 3 questions with the same histogram size
xs = onp.linspace(0.0, 1.0, 20)
for q in range(3):  # scaffolding
    hist = [{"x": float(x), "density": float(d)} for x, d in zip(xs, onp.exp(-((xs - 0.3 - 0.1 * q) ** 2) / 0.02))]
    LogisticMixture.from_conditions([HistogramCondition(hist)], num_components=3)
print(sorted(set(_COMPILED)), file=__import__("sys").stderr)  # scaffolding
_report({"jit(loss)"}, 30)  # scaffolding
