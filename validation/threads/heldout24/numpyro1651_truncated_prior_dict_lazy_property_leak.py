# source: https://github.com/pyro-ppl/numpyro/issues/1651
# expect: stale-closure at line 146
# runtime: ERROR Exception
# why: The truncated prior is built once at module level and kept in a dict; while the model is traced, lazy_property caches _tail_prob_at_low on that shared instance, so a tracer from one trace is reused by the next and mcmc.run with ten parallel chains fails with a leaked-trace Exception under checking_leaks.
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


# numpyro/distributions/util.py lazy_property and numpyro/distributions/truncated.py
# LeftTruncatedDistribution / TruncatedNormal as in numpyro at 115c4d33 (Sept 2023, when the issue was filed), flattened
from functools import update_wrapper

from jax import lax
import jax.numpy as jnp
import jax.random as random
from jax.tree_util import tree_map

from numpyro.distributions import constraints
from numpyro.distributions.continuous import (
    Cauchy,
    Laplace,
    Logistic,
    Normal,
    SoftLaplace,
    StudentT,
)
from numpyro.distributions.distribution import Distribution
from numpyro.distributions.util import (
    promote_shapes,
    validate_sample,
)
from numpyro.util import is_prng_key


class lazy_property(object):
    r"""
    Used as a decorator for lazy loading of class attributes. This uses a
    non-data descriptor that calls the wrapped method to compute the property on
    first call; thereafter replacing the wrapped method into an instance
    attribute.
    """

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    # This is to prevent warnings from sphinx
    def __call__(self, *args, **kwargs):
        return self.wrapped(*args, **kwargs)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class LeftTruncatedDistribution(Distribution):
    arg_constraints = {"low": constraints.real}
    reparametrized_params = ["low"]
    supported_types = (Cauchy, Laplace, Logistic, Normal, SoftLaplace, StudentT)
    pytree_data_fields = ("base_dist", "low", "_support")

    def __init__(self, base_dist, low=0.0, *, validate_args=None):
        assert isinstance(base_dist, self.supported_types)
        assert (
            base_dist.support is constraints.real
        ), "The base distribution should be univariate and have real support."
        batch_shape = lax.broadcast_shapes(base_dist.batch_shape, jnp.shape(low))
        self.base_dist = tree_map(
            lambda p: promote_shapes(p, shape=batch_shape)[0], base_dist
        )
        (self.low,) = promote_shapes(low, shape=batch_shape)
        self._support = constraints.greater_than(low)
        super().__init__(batch_shape, validate_args=validate_args)

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return self._support

    @lazy_property
    def _tail_prob_at_low(self):
        # if low < loc, returns cdf(low); otherwise returns 1 - cdf(low)
        loc = self.base_dist.loc
        sign = jnp.where(loc >= self.low, 1.0, -1.0)
        return self.base_dist.cdf(loc - sign * (loc - self.low))

    @lazy_property
    def _tail_prob_at_high(self):
        # if low < loc, returns cdf(high) = 1; otherwise returns 1 - cdf(high) = 0
        return jnp.where(self.low <= self.base_dist.loc, 1.0, 0.0)

    def sample(self, key, sample_shape=()):
        assert is_prng_key(key)
        dtype = jnp.result_type(float)
        finfo = jnp.finfo(dtype)
        minval = finfo.tiny
        u = random.uniform(key, shape=sample_shape + self.batch_shape, minval=minval)
        loc = self.base_dist.loc
        sign = jnp.where(loc >= self.low, 1.0, -1.0)
        return (1 - sign) * loc + sign * self.base_dist.icdf(
            (1 - u) * self._tail_prob_at_low + u * self._tail_prob_at_high
        )

    @validate_sample
    def log_prob(self, value):
        sign = jnp.where(self.base_dist.loc >= self.low, 1.0, -1.0)
        return self.base_dist.log_prob(value) - jnp.log(
            sign * (self._tail_prob_at_high - self._tail_prob_at_low)
        )


def TruncatedNormal(loc=0.0, scale=1.0, *, low=None, high=None, validate_args=None):
    return LeftTruncatedDistribution(  # TruncatedDistribution(...) picks the left-truncated class when only low is given
        Normal(loc, scale), low=low, validate_args=validate_args
    )


# --- the script ---
import numpyro
from numpyro.infer import NUTS, MCMC
from jax import random, checking_leaks

numpyro.set_platform("cpu")
numpyro.set_host_device_count(10)

prior = {"x": TruncatedNormal(low=0)}

def model():
    numpyro.sample("x", prior["x"])

nuts = NUTS(model)
mcmc = MCMC(nuts, num_warmup=100, num_samples=100, num_chains=10, progress_bar=False)  # progress_bar=False added

try:  # scaffolding
    with checking_leaks():
        mcmc.run(random.PRNGKey(0))
    print(mcmc.get_samples()["x"].shape)  # scaffolding
    _report({"jit(_fun)"}, 1)  # scaffolding: the ten parallel chains run as one pmap, compiled as jit(_fun)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
