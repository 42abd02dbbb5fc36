# source: https://github.com/PyAutoLabs/PyAutoFit/issues/1581
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the plan: evaluate assertions as a traced boolean (xp.logical_and instead of Python and) and fold them in with xp.where(satisfied, log_likelihood, resample_figure_of_merit), so the jitted figure of merit compiles once for 3 vectors, including the violating one.
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

import jax
import jax.numpy as jnp
import numpy as np


class FitException(Exception):  # scaffolding
    pass


class Prior:  # scaffolding: an autofit prior, identified by object
    def __init__(self, name):
        self.name = name


class GreaterThanLessThanAssertion:  # cut down from autofit/mapper/prior/arithmetic/assertion.py
    def __init__(self, lower, greater):
        self._left = lower
        self._right = greater

    def instance_for_arguments(self, arguments, ignore_assertions=False, xp=np):
        lower = arguments[self._left]
        greater = arguments[self._right]
        return lower < greater


class CompoundAssertion:  # cut down from autofit/mapper/prior/arithmetic/assertion.py
    def __init__(self, assertion_1, assertion_2):
        self.assertion_1 = assertion_1
        self.assertion_2 = assertion_2

    def instance_for_arguments(self, arguments, ignore_assertions=False, xp=np):
        return self.assertion_1.instance_for_arguments(
            arguments,
            ignore_assertions,
        ) and self.assertion_2.instance_for_arguments(
            arguments,
            ignore_assertions,
        )


# scaffolding: the two-basis MGE ordering of the issue, sigma_a < sigma_b < sigma_c
sigma_a, sigma_b, sigma_c = Prior("sigma_a"), Prior("sigma_b"), Prior("sigma_c")
priors = [sigma_a, sigma_b, sigma_c]
x = jnp.linspace(-3.0, 3.0, 64)  # scaffolding
data = 0.5 * jnp.exp(-0.5 * (x / 0.6) ** 2) + 0.5 * jnp.exp(-0.5 * (x / 1.5) ** 2)  # scaffolding


def log_likelihood_function(arguments):  # scaffolding: stands in for the analysis' log likelihood
    model = sum(jnp.exp(-0.5 * (x / arguments[p]) ** 2) for p in priors) / 3.0
    return -0.5 * jnp.sum((data - model) ** 2)


vectors = jnp.array([[0.5, 1.0, 2.0], [0.6, 1.2, 1.8], [1.0, 0.5, 2.0]])  # scaffolding: the last one violates the ordering


class TracedCompoundAssertion(CompoundAssertion):  # the plan: CompoundAssertion combining via xp.logical_and
    def instance_for_arguments(self, arguments, ignore_assertions=False, xp=np):
        return xp.logical_and(
            self.assertion_1.instance_for_arguments(arguments, ignore_assertions, xp=xp),
            self.assertion_2.instance_for_arguments(arguments, ignore_assertions, xp=xp),
        )


assertions = [TracedCompoundAssertion(GreaterThanLessThanAssertion(sigma_a, sigma_b), GreaterThanLessThanAssertion(sigma_b, sigma_c))]
resample_figure_of_merit = -1e99


def assertions_satisfied_for_arguments(arguments, xp=jnp):
    satisfied = xp.array(True)
    for assertion in assertions:
        satisfied = xp.logical_and(satisfied, assertion.instance_for_arguments(arguments, xp=xp))
    return satisfied


@jax.jit  # scaffolding: the JAX Fitness path
def fitness_call(parameters):
    arguments = dict(zip(priors, parameters))
    satisfied = assertions_satisfied_for_arguments(arguments)
    log_likelihood = log_likelihood_function(arguments)
    return jnp.where(satisfied, log_likelihood, resample_figure_of_merit)


for parameters in vectors:
    fitness_call(parameters)
_report({"jit(fitness_call)"}, 3)  # scaffolding
