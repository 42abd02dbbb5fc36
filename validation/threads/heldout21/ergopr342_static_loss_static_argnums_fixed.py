# source: https://github.com/oughtinc/ergo/pull/342
# expect: none
# runtime: COMPILES 2 CALLS 30
# why: the PR's module-level static_loss (jit with the distribution class and the tuple of condition classes static, condition arrays traced) is shared by every fit, so three fits compile the loss and its gradient once each.
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
from functools import partial  # scaffolding
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
class HistogramCondition:  # the condition after the PR (arrays, destructure/structure)
    xs: np.ndarray
    densities: np.ndarray
    weight: float = 1.0

    def loss(self, dist):
        entry_loss_fn = lambda x, density: (density - dist.pdf1(x)) ** 2  # noqa: E731
        total_loss = np.sum(vmap(entry_loss_fn)(self.xs, self.densities))
        return self.weight * total_loss / self.xs.size

    def normalize(self, scale_min: float, scale_max: float):  # scaffolding: scale is [0, 1] here
        return self

    def destructure(self):
        return (HistogramCondition, (self.xs, self.densities, self.weight))

    @classmethod
    def structure(cls, params):
        return cls(*params)


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

        cond_data = [condition.destructure() for condition in normalized_conditions]
        if cond_data:
            cond_classes, cond_params = zip(*cond_data)
        else:
            cond_classes, cond_params = [], []

        loss = lambda params: static_loss(  # noqa: E731
            cls, params, cond_classes, cond_params
        )
        jac = lambda params: static_loss_grad(  # noqa: E731
            cls, params, cond_classes, cond_params
        )

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


@partial(jit, static_argnums=(0, 2))
def static_loss(dist_class, dist_params, cond_classes, cond_params):
    print(
        f"Tracing {dist_class.__name__} loss for {[c.__name__ for c in cond_classes]}"
    )
    dist = dist_class.from_params(dist_params)
    total_loss = 0.0
    for (cond_class, cond_param) in zip(cond_classes, cond_params):
        condition = cond_class.structure(cond_param)
        total_loss += condition.loss(dist)
    return total_loss * 100


static_loss_grad = jit(grad(static_loss, argnums=1), static_argnums=(0, 2))


# scaffolding: the app fits a mixture for each question the user edits; 3 questions with the same histogram size
xs = onp.linspace(0.0, 1.0, 20)
for q in range(3):  # scaffolding
    dens = onp.exp(-((xs - 0.3 - 0.1 * q) ** 2) / 0.02)
    LogisticMixture.from_conditions([HistogramCondition(np.array(xs), np.array(dens))], num_components=3)
print(sorted(set(_COMPILED)), file=__import__("sys").stderr)  # scaffolding
_report({"jit(static_loss)"}, 30)  # scaffolding
