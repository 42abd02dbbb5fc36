# source: https://github.com/lindermanlab/ssm-jax/commit/96664b62ed561c0abee06bac568f233842f9c9dd
# expect: jit-in-loop-or-body at line 762
# runtime: COMPILES 6 CALLS 6
# why: HMM.expected_states wraps jit(value_and_grad(hmm_log_normalizer)) anew on every call, and em calls it through e_step once per iteration, so the forward pass compiles again on each of the 6 EM iterations.
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


# ---- scaffolding: tensorflow_probability is not installed; minimal stand-ins for the tfp.distributions and ssm.distributions pieces used ----
from types import SimpleNamespace  # scaffolding
import jax  # scaffolding
import jax.numpy as _jnp  # scaffolding


class _Distribution:  # scaffolding: tfp.distributions.Distribution
    pass  # scaffolding


@jax.tree_util.register_pytree_node_class  # scaffolding
class _Categorical(_Distribution):  # scaffolding: tfp Categorical, stores logits
    name = "Categorical"  # scaffolding

    def __init__(self, logits=None, probs=None):  # scaffolding
        self.logits = logits if logits is not None else _jnp.log(probs)  # scaffolding

    def logits_parameter(self):  # scaffolding
        return self.logits  # scaffolding

    def probs_parameter(self):  # scaffolding
        return jax.nn.softmax(self.logits, axis=-1)  # scaffolding

    def tree_flatten(self):  # scaffolding
        return (self.logits,), None  # scaffolding

    @classmethod  # scaffolding
    def tree_unflatten(cls, aux, children):  # scaffolding
        return cls(logits=children[0])  # scaffolding


@jax.tree_util.register_pytree_node_class  # scaffolding
class _MultivariateNormalTriL(_Distribution):  # scaffolding: unit-covariance Gaussian per state
    name = "MultivariateNormalTriL"  # scaffolding

    def __init__(self, loc, scale_tril=None):  # scaffolding
        self.loc = loc  # scaffolding

    def __getitem__(self, k):  # scaffolding
        return _MultivariateNormalTriL(self.loc[k])  # scaffolding

    def log_prob(self, x):  # scaffolding
        return -0.5 * _jnp.sum((x - self.loc) ** 2, axis=-1)  # scaffolding

    def tree_flatten(self):  # scaffolding
        return (self.loc,), None  # scaffolding

    @classmethod  # scaffolding
    def tree_unflatten(cls, aux, children):  # scaffolding
        return cls(children[0])  # scaffolding


tfp = SimpleNamespace(distributions=SimpleNamespace(  # scaffolding
    Distribution=_Distribution, Categorical=_Categorical, MultivariateNormalTriL=_MultivariateNormalTriL))  # scaffolding


class _CategoricalExpFam:  # scaffolding: ssm.distributions expfam for Categorical
    @staticmethod  # scaffolding
    def posterior_from_stats(stats, counts):  # scaffolding
        return SimpleNamespace(mode=lambda: stats[0] / stats[0].sum(-1, keepdims=True))  # scaffolding

    @staticmethod  # scaffolding
    def from_params(probs):  # scaffolding
        return _Categorical(probs=probs)  # scaffolding


class _GaussianExpFam:  # scaffolding: ssm.distributions expfam for MultivariateNormalTriL (means only)
    @staticmethod  # scaffolding
    def suff_stats(data):  # scaffolding
        return (data,)  # scaffolding

    @staticmethod  # scaffolding
    def posterior_from_stats(stats, counts):  # scaffolding
        return SimpleNamespace(mode=lambda: stats[0] / counts[:, None])  # scaffolding

    @staticmethod  # scaffolding
    def from_params(loc):  # scaffolding
        return _MultivariateNormalTriL(loc)  # scaffolding


EXPFAM_DISTRIBUTIONS = {"Categorical": _CategoricalExpFam, "MultivariateNormalTriL": _GaussianExpFam}  # scaffolding


class SSM(object):  # scaffolding: ssm/models/base.py SSM (only docstring methods that raise NotImplementedError)
    pass  # scaffolding


# ---- ssm/utils.py ----
"""
Useful utility functions.
"""

from scipy.optimize import linear_sum_assignment
import jax.numpy as np
import jax.random as jr
from enum import IntEnum
from tqdm.auto import trange
from typing import Sequence, Optional


class Verbosity(IntEnum):
    """
    Convenience alias class for Verbosity values.
    
    Currently, any value >= 1 corresponds to displaying progress bars
    for various function calls through JAX-SSM.

    - 0: ``OFF``
    - 1: ``QUIET``
    - 2: ``LOUD``
    - 3: ``DEBUG``
    """
    OFF = 0
    QUIET = 1
    LOUD = 2
    DEBUG = 3


def sum_tuples(a, b):
    """
    Utility function to sum tuples in an element-wise fashion.

    Args:
        a (tuple): A length ``n`` tuple
        b (tuple): A length ``n`` tuple

    Returns:
        c (tuple): The element-wise sum of ``a`` and ``b``.
    """
    assert a or b
    if a is None:
        return b
    elif b is None:
        return a
    else:
        return tuple(ai + bi for ai, bi in zip(a, b))


def ssm_pbar(num_iters, verbose, description, *args):
    """
    Return either progress bar or regular range for iterating depending on verbosity.

    Args:
        num_iters (int): The number of iterations for the iterator.
        verbose (int): if ``verbose == 2``, return ```trange`` object, else returns ``range``
        description (str): description for progress bar
        args: description format arguments
    """
    if verbose >= Verbosity.QUIET:
        pbar = trange(num_iters)
        pbar.set_description(description.format(*args))
    else:
        pbar = range(num_iters)
    return pbar


# ---- ssm/components/posterior.py ----
"""
Prototype location for posterior objects.
"""


# TODO @slinderman @schlagercollin: Consider data classes
from collections import namedtuple

# TODO: potentially a light wrapper over a posterior distribution?
class Posterior:
    def __init__(self):
        pass

HMMPosterior = namedtuple(
    "HMMPosterior", ["marginal_likelihood", "expected_states", "expected_transitions"]
)

# ---- ssm/components/initial_distributions.py ----
"""
see emission.py for design notes
"""

import jax.numpy as np
from jax.tree_util import register_pytree_node_class

# from ssm.distributions import EXPFAM_DISTRIBUTIONS  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)
# from ssm.utils import Verbosity, ssm_pbar, sum_tuples  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

# import tensorflow_probability.substrates.jax as tfp  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

@register_pytree_node_class
class InitialDistribution:
    def __init__(self, num_states, distribution):
        assert isinstance(distribution, tfp.distributions.Distribution)
        self.distribution = distribution
        self.num_states = num_states

    def exact_m_step(self, data, posterior, prior=None):
        raise NotImplementedError

    def tree_flatten(self):
        children = (self.distribution)
        aux_data = (self.num_states,)
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        num_states, = aux_data
        distribution = children
        return cls(num_states,
                   distribution=distribution)

@register_pytree_node_class
class CategoricalInitialDistribution(InitialDistribution):
    def exact_m_step(self, data, posterior, prior=None):
        expfam = EXPFAM_DISTRIBUTIONS["Categorical"]
        stats, counts = (posterior.expected_states[0],), 1

        if prior is not None:
            # Get stats from the prior
            prior_stats, prior_counts = \
                expfam.prior_pseudo_obs_and_counts(prior.initial_prior)
        else:
            # Default to uniform prior (0 stats, 1 counts)
            prior_stats, prior_counts = (np.ones(self.num_states) + 1e-4,), 0

        stats = sum_tuples(stats, prior_stats)
        counts += prior_counts

        param_posterior = expfam.posterior_from_stats(stats, counts)
        return expfam.from_params(param_posterior.mode())

# ---- ssm/components/dynamics.py ----
"""
see emissions.py for design notes
"""


import jax.numpy as np
from jax.tree_util import register_pytree_node_class

# from ssm.distributions import EXPFAM_DISTRIBUTIONS  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)
# from ssm.utils import Verbosity, ssm_pbar, sum_tuples  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

# import tensorflow_probability.substrates.jax as tfp  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

@register_pytree_node_class
class Dynamics:
    def __init__(self, num_states, distribution):
        assert isinstance(distribution, tfp.distributions.Distribution)
        self.distribution = distribution
        self.num_states = num_states

    def exact_m_step(self, data, posterior, prior=None):
        raise NotImplementedError

    def tree_flatten(self):
        children = (self.distribution)
        aux_data = (self.num_states,)
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        num_states, = aux_data
        distribution = children
        return cls(num_states,
                   distribution=distribution)

# TODO: expfam updates should be elsewhere (perhaps a core inference module)
# Then, we could call the appropriate update here
@register_pytree_node_class
class CategoricalDynamics(Dynamics):
    def exact_m_step(self, data, posterior, prior=None):
        expfam = EXPFAM_DISTRIBUTIONS["Categorical"]
        stats, counts = (posterior.expected_transitions,), 0

        if prior is not None:
            # Get stats from the prior
            prior_stats, prior_counts = \
                expfam.prior_pseudo_obs_and_counts(prior.transition_prior)
        else:
            # Default to uniform prior (0 stats, 1 counts)
            prior_stats, prior_counts = (np.ones((self.num_states, self.num_states)) + 1e-4,), 0

        stats = sum_tuples(stats, prior_stats)
        counts += prior_counts

        param_posterior = expfam.posterior_from_stats(stats, counts)
        return expfam.from_params(param_posterior.mode())

# ---- ssm/components/emissions.py ----
"""
emissions.py
===============

PROTOTYPE:

General design notes:
=====================

- Emissions object should lighlty wrap TFP distributions to provide friendly interface upstream
    - interface should include:
        - .permute(permutation)                        ==> permute the latent states defined by the distribution
        - .exact_m_step(data, posterior, prior=None)   ==> (if possible) return an updated distribution
        - .sgd_update(data, posterior)                 ==> SGD on -log_prob objective (when m_step isn't available)
        - .initialize(data)                            ==> Initialize parameters of distribution in data-aware way
        - [...]
- Like the ssm.jax_refactor branch, we could bundle a list of different distributions / state

Issues:
=======
    - right now, there is redundancy for the ExpFam distribution M_steps.
        - can we quarter that off somewhere else?
    - is this abstraction layer necessary?
        - will try to clean up other stuff to see if this makes sense
    - how should approximate m steps (i.e. Laplace) be handled? 
        - can the details of the algorithm be abstracted away?
        - does it make sense for the inference details to be implemented here?
"""
import jax.numpy as np
from jax.tree_util import register_pytree_node_class

# from ssm.distributions import EXPFAM_DISTRIBUTIONS  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)
# from ssm.utils import Verbosity, ssm_pbar, sum_tuples  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

# import tensorflow_probability.substrates.jax as tfp  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

@register_pytree_node_class
class Emissions:
    def __init__(self, num_states, distribution):
        assert isinstance(distribution, tfp.distributions.Distribution)
        self.distribution = distribution
        self.num_states = num_states

    def exact_m_step(self, data, posterior, prior=None):
        raise NotImplementedError

    def tree_flatten(self):
        children = (self.distribution)
        aux_data = (self.num_states,)
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        num_states, = aux_data
        distribution = children
        return cls(num_states,
                   distribution=distribution)


@register_pytree_node_class
class GaussianEmissions(Emissions):
    def exact_m_step(self, data, posterior, prior=None):
        """If we have the right posterior, we can perform an exact update here.
        """
        expfam = EXPFAM_DISTRIBUTIONS["MultivariateNormalTriL"]
        stats = tuple(
            np.einsum('tk,t...->k...', posterior.expected_states, s)
            for s in expfam.suff_stats(data))
        counts = np.sum(posterior.expected_states, axis=0)

        if prior is not None:
            prior_stats, prior_counts = \
                expfam.prior_pseudo_obs_and_counts(prior.emissions_prior)
            stats = sum_tuples(stats, prior_stats)
            counts += prior_counts

        param_posterior = expfam.posterior_from_stats(stats, counts)
        return expfam.from_params(param_posterior.mode())

@register_pytree_node_class
class PoissonEmissions(Emissions):
    def exact_m_step(self, data, posterior, prior=None):
        """If we have the right posterior, we can perform an exact update here.
        """
        expfam = EXPFAM_DISTRIBUTIONS["IndependentPoisson"]
        stats = tuple(
            np.einsum('tk,t...->k...', posterior.expected_states, s)
            for s in expfam.suff_stats(data))
        counts = np.sum(posterior.expected_states, axis=0)

        if prior is not None:
            prior_stats, prior_counts = \
                expfam.prior_pseudo_obs_and_counts(prior.emissions_prior)
            stats = sum_tuples(stats, prior_stats)
            counts += prior_counts

        param_posterior = expfam.posterior_from_stats(stats, counts)
        return expfam.from_params(param_posterior.mode())

# ---- ssm/inference/message_passing.py ----
"""
TODO: organize HMM-specific EM functions elsewhere

IDEA:
    - decompose this file into `message_passing.py` routines
"""
from collections import namedtuple
from textwrap import dedent

import jax.numpy as np
from jax import jit, lax, value_and_grad

from functools import partial

import jax.scipy.special as spsp
import jax.random as npr
# import jax.experimental.optimizers as optimizers  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

# from ssm.models.hmm import HMM
# from ssm.distributions import EXPFAM_DISTRIBUTIONS  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)
# from ssm.utils import Verbosity, ssm_pbar, sum_tuples  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)


### Core message passing routines
def hmm_log_normalizer(log_initial_state_probs, log_transition_matrix, log_likelihoods):
    """
    Compute the marginal likelihood (i.e. log normalizer) under
    a Hidden Markov Model (HMM) with the specified natural parameters.
    
    The normalizer is computed via the forward message passing recursion,

    .. math::
        \log \\alpha_{t+1,j} =
            \log \sum_i \exp \{ \log \\alpha_{t,i} +
                                \log p(x_t | z_t = i) +
                                \log p(z_{t+1} = j | z_t = i) \}

    where, 
    
    .. math::
        \\alpha_{t+1} \propto p(z_{t+1} | x_{1:t}).

    Args:
        log_initial_state_probs: Log of the initial state probabilities.
            A shape ``(K,)`` array where ``K`` is the number of states.

        log_transition_matrix: Log transition matrix or matrices. The shape
            must either be ``(K, K)`` where ``K`` is the number of states
            or ``(T-1, K, K)`` where ``T`` is the length of the sequence.
            In the former case, the entry ``[i,j]`` specifies the log
            probability of transitioning from state ``i`` to state ``j``.
            In the latter case, the ``[t,i,j]`` entry gives the log probability
            of transitioning from state ``z_t = i`` to state ``z_{t+1} = j``
            for ``t=1,...,T-1``.

        log_likelihoods: Log likelihoods combined in a shape ``(T, K)``
            array where ``T`` is the length of the sequence and ``K`` is
            the number of states.  The ``[t, i]`` entry specifies the log
            likelihood of observation ``x[t]`` given state ``z[t] = i``.

    Returns:
        The log probability of the sequence, summing out the discrete states.
    """
    assert log_initial_state_probs.ndim == 1 and log_likelihoods.ndim == 2
    num_states = len(log_initial_state_probs)
    num_timesteps = len(log_likelihoods)
    assert log_likelihoods.shape[1] == num_states

    if log_transition_matrix.ndim == 2:
        # Stationary (fixed) transition probabilities
        assert log_transition_matrix.shape == (num_states, num_states)
        return _stationary_hmm_log_normalizer(
            log_initial_state_probs, log_transition_matrix, log_likelihoods
        )

    elif log_transition_matrix.ndim == 3:
        # Time-varying transition probabilities
        assert log_transition_matrix.shape == (
            num_timesteps - 1,
            num_states,
            num_states,
        )
        return _nonstationary_hmm_log_normalizer(
            log_initial_state_probs, log_transition_matrix, log_likelihoods
        )

    else:
        raise Exception("`log_transition_matrix` must be either 2d or 3d.")


def _stationary_hmm_log_normalizer(
    log_initial_state_probs, log_transition_matrix, log_likelihoods
):
    def marginalize(alpha, ll):
        alpha = spsp.logsumexp(alpha + ll + log_transition_matrix.T, axis=1)
        return alpha, alpha

    alpha_T, alphas = lax.scan(
        marginalize, log_initial_state_probs, log_likelihoods[:-1]
    )

    # Note: alphas is interesting too, for forward filtering
    # Could return ..., np.row_stack((log_initial_state_probs, alphas))

    # Account for the last timestep when computing marginal lkhd
    return spsp.logsumexp(alpha_T + log_likelihoods[-1])


def _nonstationary_hmm_log_normalizer(
    log_initial_state_probs, log_transition_matrices, log_likelihoods
):
    def marginalize(alpha, prms):
        log_P, ll = prms
        alpha = spsp.logsumexp(alpha + ll + log_P.T, axis=1)
        return alpha, alpha

    alpha_T, alphas = lax.scan(
        marginalize,
        log_initial_state_probs,
        (log_transition_matrices, log_likelihoods[:-1]),
    )

    # Account for the last timestep when computing marginal lkhd
    return spsp.logsumexp(alpha_T + log_likelihoods[-1])

hmm_expected_states = jit(value_and_grad(hmm_log_normalizer, argnums=(0, 1, 2)))
hmm_expected_states.__doc__ = dedent(   
    """
    Compute posterior expectations of the latent states in a Hidden Markov
    Model (HMM) with the specified natural parameters. 
    
    The expectations are computed using a special property of exponential 
    family distributions: the expected sufficient statistics are equal to 
    the gradient of the log normalizer with respect to the natural parameters.

    For an HMM, the sufficient statistics are simply indicator functions

    .. math::

            t(z)_1 &= [\mathbb{I}[z_1 = 1], \ldots, \mathbb{I}[z_1=K]] \\\\
            t(z)_2 &= [\mathbb{I}[z_t = 1], \ldots, \mathbb{I}[z_t=K]] \\text{ for } t = 1, ..., T \\\\
            t(z)_3 &= [\mathbb{I}[z_t = k_1, z_{t+1} = k_2]] \\text{ for } t = 1, ..., T-1; k_1 = 1,...,K; k_2 = 1, ..., K
        
    The expected sufficient statistics are the probabilities of these
    events under the posterior distribution determined by the natural parameters,
    i.e. arguments to this function.

    Args:
        log_initial_distn: Log of the initial state distribution.
            A shape ``(K,)`` array where ``K`` is the number of states.
        log_transition_matrix: Log transition matrix or matrices. The shape
            must either be ``(K, K)`` where ``K`` is the number of states
            or ``(T-1, K, K)`` where ``T`` is the length of the sequence.
            In the former case, the entry ``[i,j]`` specifies the log
            probability of transitioning from state ``i`` to state ``j``.
            In the latter case, the ``[t,i,j]`` entry gives the log probability
            of transitioning from state ``z_t = i`` to state ``z_{t+1} = j``
            for ``t=1,...,T-1``.
        log_likelihoods: Log likelihoods combined in a shape ``(T, K)``
            array where ``T`` is the length of the sequence and ``K`` is
            the number of states.  The ``[t, i]`` entry specifies the log
            likelihood of observation ``x[t]`` given state ``z[t] = i``.

    Returns:
        The log normalizer and a tuple including of expected sufficient statistics.
    """
)
    

# ---- ssm/inference/em.py (stochastic_em cut) ----
from collections import namedtuple
from textwrap import dedent

import jax.numpy as np
from jax import jit, lax, value_and_grad

from functools import partial

import jax.scipy.special as spsp
import jax.random as npr
# import jax.experimental.optimizers as optimizers  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

# from ssm.models.hmm import HMM
# from ssm.distributions import EXPFAM_DISTRIBUTIONS  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)
# from ssm.utils import Verbosity, ssm_pbar, sum_tuples  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)


def em(model,
       data,
       num_iters=100,
       tol=1e-4,
       verbosity=Verbosity.DEBUG,
    ):

    # @jit
    def update(model):
        posterior = model.e_step(data)
        model = model.m_step(data, posterior)
        return model, posterior

    # Run the EM algorithm to convergence
    log_probs = []
    pbar = ssm_pbar(num_iters, verbosity, "Iter {} LP: {:.3f}", 0, np.nan)
    
    if verbosity:
        pbar.set_description("[jit compiling...]")

    for itr in pbar:
        model, posterior = update(model)
        lp = posterior.marginal_likelihood
        assert np.isfinite(lp), "NaNs in marginal log probability"
        log_probs.append(lp)
        if verbosity:
            pbar.set_description("LP: {:.3f}".format(lp))

        # Check for convergence
        if itr > 1 and abs(log_probs[-1] - log_probs[-2]) < tol:
            if verbosity:
                pbar.set_description("[converged] LP: {:.3f}".format(lp))
                pbar.refresh()
            break

    return np.array(log_probs), model, posterior



# ---- ssm/models/hmm.py (HMMConjugatePrior and Poisson/initialize helpers cut) ----
"""
Module defining model behavior for Hidden Markov Models (HMMs).
"""

import jax.numpy as np
import jax.random as jr
import jax.scipy.special as spsp
from jax import jit, value_and_grad

from jax import vmap
from jax.tree_util import register_pytree_node_class
# from tensorflow_probability.substrates import jax as tfp  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

# from ssm.models.base import SSM  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

from typing import Any

# from ssm.utils import Verbosity  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)
Array = Any

# from ssm.components.posterior import HMMPosterior  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)
# from ssm.inference.message_passing import hmm_log_normalizer  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)
# from ssm.inference.em import em  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

# from ssm.components.initial_distributions import CategoricalInitialDistribution  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)
# from ssm.components.dynamics import CategoricalDynamics  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)
# from ssm.components.emissions import GaussianEmissions, PoissonEmissions  # scaffolding: stand-in above (ssm is this file; tfp and jax.experimental.optimizers are not available)

@register_pytree_node_class
class HMM(SSM):
    
    def __init__(self, num_states: int,
                 initial_distribution: tfp.distributions.Categorical,
                 transition_distribution: tfp.distributions.Categorical,
                 emissions_distribution: tfp.distributions.Distribution):
        """Class for Hidden Markov Model (HMM).

        Args:
            num_states (int): Number of discrete latent states.
            initial_distribution (tfp.distributions.Categorical): The distribution over the initial state.
            transition_distribution (tfp.distributions.Categorical): The transition distribution.
            emissions_distribution (tfp.distributions.Distribution): The emissions distribution.
        """
        self.num_states = num_states

        # TODO: should constructor take in a TFP distribution directly OR our wrapperized version?
        # TODO: this could be reason to not use the wrapperized version (i.e. is it too light?)
        self.initials = CategoricalInitialDistribution(num_states, initial_distribution)
        self.dynamics = CategoricalDynamics(num_states, transition_distribution)

        # TODO: this should be a lookup table
        if isinstance(emissions_distribution, tfp.distributions.Distribution):
            if emissions_distribution.name == "IndependentPoisson":
                self.emissions = PoissonEmissions(num_states, emissions_distribution)
            elif emissions_distribution.name == "MultivariateNormalTriL":
                self.emissions = GaussianEmissions(num_states, emissions_distribution)

    def tree_flatten(self):
        children = (self.initials,
                    self.dynamics,
                    self.emissions)
        aux_data = (self.num_states,)
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        num_states, = aux_data
        initials, dynamics, emissions = children
        return cls(num_states,
                   initial_distribution=initials.distribution,
                   transition_distribution=dynamics.distribution,
                   emissions_distribution=emissions.distribution)

    def initial_distribution(self):
        return self.initials.distribution

    def dynamics_distribution(self, state):
        return self.dynamics.distribution[state]

    def emissions_distribution(self, state):
        return self.emissions.distribution[state]

    @property
    def initial_state_probs(self):
        return self.initials.distribution.probs_parameter()

    @property
    def transition_matrix(self):
        return self.dynamics.distribution.probs_parameter()

    def natural_parameters(self, data: Array):
        """Obtain the natural parameters for the HMM given observation data.
        
        The natural parameters for an HMM are:
            - log probability of the initial state distribution
            - log probablity of the transitions (log transition matrix)
            - log likelihoods of the emissions data

        Args:
            data (Array): Observed data array: ``(time, obs_dim)``.

        Returns:
            log_initial_state_distn (Array): log probability of the initial state distribution
            log_transition_matrix (Array): log of transition matrix
            log_likelihoods (Array): log probability of emissions
        """
        log_initial_state_distn = self.initials.distribution.logits_parameter()
        log_transition_matrix = self.dynamics.distribution.logits_parameter()
        log_transition_matrix -= spsp.logsumexp(log_transition_matrix, axis=1, keepdims=True)
        log_likelihoods = vmap(lambda k:
                               vmap(lambda x: self.emissions.distribution[k].log_prob(x))(data)
                               )(np.arange(self.num_states)).T

        return log_initial_state_distn, log_transition_matrix, log_likelihoods

    ### Methods for inference

    # TODO: should this be defined in message passing or here?
    def expected_states(self, data):
        marginal_likelihood, (Ez0, Ezzp1, Ez) = \
            jit(value_and_grad(hmm_log_normalizer, argnums=(0, 1, 2)))\
                (*self.natural_parameters(data))
        return marginal_likelihood, (Ez0, Ezzp1, Ez)

    def posterior(self, data):
        marginal_likelihood, (Ez0, Ezzp1, Ez) = self.expected_states(data)
        return HMMPosterior(marginal_likelihood, Ez, Ezzp1)

    def e_step(self, data):
        return self.posterior(data)

    def fit_using_posterior(self, data, posterior, prior=None):
        new_initial_distribution = self.initials.exact_m_step(data, posterior, prior=prior)
        new_dynamics_distribution = self.dynamics.exact_m_step(data, posterior, prior=prior)
        new_emissions_distribution = self.emissions.exact_m_step(data, posterior, prior=prior)

        # TODO: should this return a new object in this class-based formulation?
        return HMM(self.num_states,
                new_initial_distribution,
                new_dynamics_distribution,
                new_emissions_distribution)

    def m_step(self, data, posterior, prior=None):
        return self.fit_using_posterior(data, posterior, prior=None)

    def expected_log_joint(self, data, posterior):
        """The expected log joint probability of an HMM given a posterior over the latent states.
            
            .. math::
                \mathbb{E}_{q(z)} \left[\log p(x, z, \\theta)\\right]
                
            where,
            
            .. math:: 
                q(z) = p(z|x, \\theta).
                
            Recall that this is the component of the ELBO that is dependent upon the parameters.
            
            .. math::
                \mathcal{L}(q, \\theta) = \mathbb{E}_{q(z)} \left[\log p(x, z, \\theta) - \log q(z) \\right]

            Args:
                data ([type]): [description]
                posterior ([type]): [description]

            Returns:
                elp ([type]): expected log probability
            """
        log_initial_state_probs, log_transition_matrix, log_likelihoods = self.natural_parameters(data)
        elp = np.sum(posterior.expected_states[0] * log_initial_state_probs)
        elp += np.sum(posterior.expected_transitions * log_transition_matrix)
        elp += np.sum(posterior.expected_states * log_likelihoods)
        return elp

    def fit(self, data, method="em", num_iters=100, tol=1e-4, verbosity=Verbosity.DEBUG):
        model = self
        kwargs = dict(num_iters=num_iters, tol=tol, verbosity=verbosity)

        if method == "em":
            log_probs, model, posterior = em(model, data, **kwargs)
        else:
            raise ValueError(f"Method {method} is not recognized.")

        return log_probs, model, posterior

# TODO: can we clean up these functions so that they are more usable?

# Helper functions to construct HMMs
def _make_standard_hmm(num_states, initial_state_probs=None,
                       initial_state_logits=None,
                       transition_matrix=None,
                       transition_logits=None):
    # Set up the initial state distribution and prior
    if initial_state_logits is None:
        if initial_state_probs is None:
            initial_state_logits = np.zeros(num_states)
        else:
            initial_state_logits = np.log(initial_state_probs)

    initial_dist = tfp.distributions.Categorical(logits=initial_state_logits)

    # Set up the transition matrix and prior
    if transition_logits is None:
        if transition_matrix is None:
            transition_logits = np.zeros((num_states, num_states))
        else:
            transition_logits = np.log(transition_matrix)

    transition_dist = tfp.distributions.Categorical(logits=transition_logits)

    return initial_dist, transition_dist


# Gaussian HMM
def make_gaussian_hmm(num_states: int,
                      emission_dim: int,
                      initial_state_probs: Array=None,
                      initial_state_logits: Array=None,
                      transition_matrix: Array=None,
                      transition_logits: Array=None,
                      emission_means: Array=None,
                      emission_covariances: Array=None,
                      emission_scale_trils: Array=None):
    """Helper function to create a Gaussian HMM given distribution parameters.

    Args:
        num_states (int): The number of discrete states in the HMM.
        emission_dim (int): The dimension of the output emissions.
        initial_state_probs (Array, optional): A ``(num_states,)`` array specifying the probabilities 
            of the initial state. Defaults to None.
        initial_state_logits (Array, optional): A ``(num_states,)`` array specifying the logits
            of the initial state. Defaults to None.
        transition_matrix (Array, optional): A ``(num_states, num_states)`` array specifying the transition
            probabilities. Defaults to None.
        transition_logits (Array, optional): A ``(num_states, num_states)`` array specifying the transition
            logits. Defaults to None.
        emission_means (Array, optional): A ``(num_states, obs_dim)`` array specifying the means of the 
            emissions distributions. Defaults to None.
        emission_covariances (Array, optional): A ``(num_states, obs_dim, obs_dim)`` array specifying the
            covariances of the emissions distributions. Defaults to None.
        emission_scale_trils (Array, optional): Lower-triagonal tensor specifying the scale of the emissions
            distribution. Defaults to None. 

    Returns:
        gaussian_hmm [HMM]: An intialized Gaussian HMM object. 
    """
    # Initialize the basics
    initial_dist, transition_dist = \
        _make_standard_hmm(num_states,
                           initial_state_probs=initial_state_probs,
                           initial_state_logits=initial_state_logits,
                           transition_matrix=transition_matrix,
                           transition_logits=transition_logits)

    # Initialize the Gaussian emissions
    if emission_means is None:
        emission_means = np.zeros((num_states, emission_dim))

    if emission_scale_trils is None:
        if emission_covariances is None:
            emission_scale_trils = np.tile(np.eye(emission_dim), (num_states, 1, 1))
        else:
            emission_scale_trils = np.linalg.cholesky(emission_covariances)

    emission_dist = \
    tfp.distributions.MultivariateNormalTriL(loc=emission_means,
                                             scale_tril=emission_scale_trils)

    return HMM(num_states, initial_dist, transition_dist, emission_dist)




# scaffolding: a small 2-state Gaussian HMM fitted with the library's own fit/em, as in the notebooks
import numpy as onp  # scaffolding
onp.random.seed(0)  # scaffolding
data = np.array(onp.concatenate([onp.random.randn(50, 2) + 3.0, onp.random.randn(50, 2) - 3.0]).astype("float32"))  # scaffolding
hmm_model = make_gaussian_hmm(2, 2, emission_means=np.array([[1.0, 1.0], [-1.0, -1.0]]))  # scaffolding
try:  # scaffolding
    log_probs, fitted, posterior = hmm_model.fit(data, num_iters=6, tol=-1.0, verbosity=Verbosity.OFF)  # scaffolding: tol=-1 so all 6 iterations run
    print("EM iterations:", len(log_probs), "log probs:", [round(float(lp), 2) for lp in log_probs])  # scaffolding
    _report({"jit(hmm_log_normalizer)"}, len(log_probs))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
