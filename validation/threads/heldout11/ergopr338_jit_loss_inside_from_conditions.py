# source: https://github.com/oughtinc/ergo/pull/338
# expect: jit-in-loop-or-body at line 111
# runtime: COMPILES 6 CALLS 3
# why: from_conditions defines loss as a fresh closure and wraps it in jit (and jit(grad(loss))) on every call, so each fit recompiles both functions even though the conditions and bin count are unchanged (6 compiles for 3 fits).

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
from dataclasses import dataclass
from typing import List

from jax import grad, jit, nn
import jax.numpy as np
import numpy as onp
import scipy as oscipy
import scipy.optimize  # scaffolding: submodule import


def shift(xs, k, fill_value):
    return np.concatenate((np.full(k, fill_value), xs[:-k]))


@dataclass
class SmoothnessCondition:
    weight: float = 1.0
    window_size: int = 1

    def loss(self, dist) -> float:
        squared_distance = 0.0
        for i in range(1, self.window_size + 1):
            squared_distance += (1 / i) * np.sum(
                np.square(dist.ps - shift(dist.ps, 1, dist.ps[0]))
            )
        return self.weight * np.exp(squared_distance)

    def normalize(self, scale_min: float, scale_max: float):
        return self


@dataclass
class MaxEntropyCondition:
    weight: float = 1.0

    def loss(self, dist) -> float:
        return -self.weight * dist.entropy()

    def normalize(self, scale_min: float, scale_max: float):
        return self


@dataclass
class HistogramDist:
    logps: object  # scaffolding: np.DeviceArray annotation

    def __init__(self, logps, scale_min=0, scale_max=1, traceable=False):
        init_numpy = np if traceable else onp
        self.logps = logps
        self.ps = np.exp(logps)
        self.cum_ps = np.array(init_numpy.cumsum(self.ps))
        self.bins = np.linspace(scale_min, scale_max, logps.size + 1)
        self.size = logps.size
        self.scale_min = scale_min
        self.scale_max = scale_max

    def entropy(self):
        return -np.dot(self.ps, self.logps)

    def denormalize(self, scale_min, scale_max):
        return HistogramDist(self.logps, scale_min, scale_max)

    @classmethod
    def from_conditions(
        cls,
        conditions: List["conditions.Condition"],
        scale_min=0,
        scale_max=1,
        num_bins=100,
        verbose=False,
    ):
        normalized_conditions = [
            condition.normalize(scale_min, scale_max) for condition in conditions
        ]

        def loss(params):
            dist = cls.from_params(params, traceable=True)
            total_loss = sum(
                condition.loss(dist) for condition in normalized_conditions
            )
            return total_loss * 100

        loss = jit(loss)
        jac = jit(grad(loss))
        normalized_dist = cls.from_loss(loss=loss, jac=jac, num_bins=num_bins)

        if verbose:
            for condition in normalized_conditions:
                print(condition)

        return normalized_dist.denormalize(scale_min, scale_max)

    @classmethod
    def from_loss(cls, loss, jac, num_bins=100):
        x0 = cls.initialize_params(num_bins)
        results = oscipy.optimize.minimize(loss, jac=jac, x0=x0)
        return cls.from_params(results.x)

    @classmethod
    def from_params(cls, params, traceable=False):
        logps = nn.log_softmax(params)
        return cls(logps, traceable=traceable)

    @staticmethod
    def initialize_params(num_bins):
        return onp.full(num_bins, -num_bins)


conditions = [MaxEntropyCondition(), SmoothnessCondition(weight=10.0)]  # scaffolding
fits = 0  # scaffolding
for _ in range(3):  # scaffolding: repeated fits, e.g. one per question
    dist = HistogramDist.from_conditions(conditions, num_bins=10)  # scaffolding
    fits += 1  # scaffolding
print(sorted(set(_COMPILED)))  # scaffolding
_report({"jit(loss)"}, fits)  # scaffolding
