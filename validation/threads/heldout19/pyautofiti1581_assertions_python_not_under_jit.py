# source: https://github.com/PyAutoLabs/PyAutoFit/issues/1581
# expect: trace-time-error at line 60
# runtime: ERROR TracerBoolConversionError
# why: check_assertions applies Python 'not' to each assertion and CompoundAssertion combines them with Python 'and'; under the JAX likelihood's jit the comparisons are tracers, so the boolean conversion raises TracerBoolConversionError for every vector.
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
assertions = [CompoundAssertion(GreaterThanLessThanAssertion(sigma_a, sigma_b), GreaterThanLessThanAssertion(sigma_b, sigma_c))]


def check_assertions(arguments):  # AbstractPriorModel.check_assertions, self._assertions -> assertions
    failed_assertions = [
        assertion
        for assertion in assertions
        if assertion is False
        or assertion is not True
        and not assertion.instance_for_arguments(
            arguments,
        )
    ]
    if len(failed_assertions) > 0:
        raise FitException("assertion failed")  # scaffolding: message shortened


@jax.jit  # scaffolding: the JAX Fitness path jits (and vmaps) the figure of merit
def fitness_call(parameters):
    arguments = dict(zip(priors, parameters))
    check_assertions(arguments)
    return log_likelihood_function(arguments)


try:  # scaffolding
    for parameters in vectors:
        fitness_call(parameters)
    _report({"jit(fitness_call)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
