# source: https://github.com/lindermanlab/ssm-jax/commit/9fd1ed4bec589def349e992b9f32339d9d209f5f
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the commit stores np.float32(stay_probability) (jax.numpy), a strongly typed float32, so the model pytree has the same signature on every EM iteration and update compiles once.
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


# ---- scaffolding: tensorflow_probability is not installed; minimal stand-ins for the ssm.distributions wrappers used (ssmd.Categorical, Beta, Bernoulli, Dirichlet) ----
from types import SimpleNamespace  # scaffolding
import jax  # scaffolding
import jax.numpy as _jnp  # scaffolding


@jax.tree_util.register_pytree_node_class  # scaffolding
class _Categorical:  # scaffolding: like tfd.Categorical, keeps its logits as a float32 tensor
    def __init__(self, logits=None, probs=None):  # scaffolding
        self._logits = _jnp.asarray(logits if logits is not None else _jnp.log(probs), _jnp.float32)  # scaffolding

    def logits_parameter(self):  # scaffolding
        return self._logits  # scaffolding

    def probs_parameter(self):  # scaffolding
        return jax.nn.softmax(self._logits, axis=-1)  # scaffolding

    def __getitem__(self, k):  # scaffolding
        return _Categorical(logits=self._logits[k])  # scaffolding

    def tree_flatten(self):  # scaffolding
        return (self._logits,), None  # scaffolding

    @classmethod  # scaffolding
    def tree_unflatten(cls, aux, children):  # scaffolding
        obj = object.__new__(cls)  # scaffolding
        obj._logits = children[0]  # scaffolding
        return obj  # scaffolding


@jax.tree_util.register_pytree_node_class  # scaffolding
class _Beta:  # scaffolding: like tfd.Beta, converts its concentrations to float32 tensors
    def __init__(self, concentration1, concentration0):  # scaffolding
        self.concentration1 = _jnp.asarray(concentration1, _jnp.float32)  # scaffolding
        self.concentration0 = _jnp.asarray(concentration0, _jnp.float32)  # scaffolding

    def mode(self):  # scaffolding
        return (self.concentration1 - 1) / (self.concentration1 + self.concentration0 - 2)  # scaffolding

    def tree_flatten(self):  # scaffolding
        return (self.concentration1, self.concentration0), None  # scaffolding

    @classmethod  # scaffolding
    def tree_unflatten(cls, aux, children):  # scaffolding
        obj = object.__new__(cls)  # scaffolding
        obj.concentration1, obj.concentration0 = children  # scaffolding
        return obj  # scaffolding


class _Bernoulli:  # scaffolding: conjugate update of ssm.distributions.Bernoulli (Beta posterior from stats)
    @staticmethod  # scaffolding
    def compute_conditional_from_stats(stats):  # scaffolding
        return _Beta(*stats)  # scaffolding


ssmd = SimpleNamespace(Categorical=_Categorical, Beta=_Beta, Bernoulli=_Bernoulli, Dirichlet=_Beta)  # scaffolding

# ---- ssm/utils.py (Verbosity, ssm_pbar, ensure_has_batch_dim; other helpers cut) ----
import jax.numpy as np
import jax.random as jr
import jax.scipy.special as spsp
# from jax import vmap, lax, tree_multimap  # scaffolding: tree_multimap no longer exists in jax
from jax import vmap, lax  # scaffolding
# from jax.tree_util import tree_map, tree_structure, tree_leaves, tree_reduce, tree_multimap  # scaffolding: tree_multimap is gone
from jax.tree_util import tree_map, tree_structure, tree_leaves, tree_reduce  # scaffolding
import inspect
from enum import IntEnum
from tqdm.auto import trange
from scipy.optimize import linear_sum_assignment
from typing import Sequence, Optional
from functools import wraps, partial
import copy

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


def ensure_has_batch_dim(batched_args=("data", "posterior", "covariates", "metadata"),
                         model_arg="self"):
    """Decorator to automatically add a batch dim to args defined by batched_args.
    
    Note: this decorator makes some strong assumptions about what is passed into the function.
    Please see details below.
    
    Checks the shape of the PyTree leaves inside the data argument and compares them to the 
    shape of emissions as defined by the model. A batch dimension is added if the shape
    only has 1 additional dimension (num_timesteps).

    Naively assumes that if data needs a batch dim, then so do the rest of the batched_args.

    Args:
        batched_args (tuple, optional): Names of the function arguments to batch.
            'data' must be an element. Defaults to ("data", "posterior", "covariates", "metadata").
        model_arg (str, optional): The name of the argument of the model class.
            Used to extract information about the emissions shape. Defaults to "self".
    """
    def ensure_has_batch_dim_decorator(f):
        sig = inspect.signature(f)

        @wraps(f)
        def wrapper(*args, **kwargs):
            bound_args = sig.bind(*args, **kwargs)
            bound_args.apply_defaults()

            assert "data" in batched_args and "data" in bound_args.arguments,\
                "`data` must be an argument in order to use the `ensure_has_batch_dim` decorator."

            assert model_arg in bound_args.arguments, \
                "`model_arg` must be an argument in order to use the `ensure_has_batch_dim` decorator."

            # Determine the batch dimension from the shape of the data and the model.
            # Naively assume that if data needs a batch, so do the other batched args.
            given_shape = tree_map(lambda x: np.array(x.shape), bound_args.arguments["data"])
            emissions_shape = bound_args.arguments[model_arg].emissions_shape

            # First check that the trailing shapes are correct.
            # leaf_is_valid = lambda shp, shp_suffix: \
            #     len(shp) > len(shp_suffix) \
            #         and len(shp) <=  len(shp_suffix) + 2 and \
            #             np.all(shp[-len(shp_suffix):] == shp_suffix)
            # assert all(tree_leaves(tree_map(leaf_is_valid, given_shape, emissions_shape)))

            # A leaf needs a batch dim if it only has one extra dimension (num_timesteps).
            leaf_needs_batch = lambda shp, shp_suffix: len(shp) == len(shp_suffix) + 1
            needs_batch = all(tree_leaves(tree_map(leaf_needs_batch, given_shape, emissions_shape)))

            # If data needs a batch, assume the other args do too
            if needs_batch:
                for key in batched_args:
                    if key in bound_args.arguments and bound_args.arguments[key] is not None:
                        bound_args.arguments[key] = \
                            tree_map(lambda x: x[None, ...], bound_args.arguments[key])

            return f(**bound_args.arguments)

        return wrapper
    return ensure_has_batch_dim_decorator



# ---- ssm/hmm/transitions.py ----
import jax.numpy as np
import jax.scipy.special as spsp
from jax import vmap
from jax.tree_util import register_pytree_node_class

# from tensorflow_probability.substrates import jax as tfp  # scaffolding: ssm is this file; tensorflow_probability is not installed, stand-ins above
# tfd = tfp.distributions  # scaffolding: ssm is this file; tensorflow_probability is not installed, stand-ins above

# import ssm.distributions as ssmd  # scaffolding: ssm is this file; tensorflow_probability is not installed, stand-ins above


class Transitions:
    """
    Base class for HMM transitions models,

    .. math::
        p_t(z_t \mid z_{t-1}, u_t)

    where u_t are optional covariates at time t.
    """
    def __init__(self, num_states: int) -> None:
        self._num_states = num_states

    @property
    def num_states(self):
        return self._num_states

    def distribution(self, state, covariates=None, metadata=None):
        """
        Return the conditional distribution of z_t given state z_{t-1}
        
        Args:
            state (int): state z_{t-1}
            covariates (PyTree, optional): optional covariates with leaf shape (B, T, ...).
                Defaults to None.
            metadata (PyTree, optional): optional metadata with leaf shape (B, ...).
                Defaults to None.
                
        Returns:
            distribution (tfd.Distribution): conditional distribution of z_t given state z_{t-1}.
        """
        raise NotImplementedError

    def log_transition_matrices(self, data, covariates=None, metadata=None):
        r"""Returns the log probability of data where

        .. math::
            \texttt{log\_P}[i, j] = \log \Pr(z_{t+1} = j | z_t = i)

        if the transition probabilities are stationary or

        .. math::
            \texttt{log\_P}[t, i, j] = \log \Pr(z_{t+1} = j | z_t = i)

        if they are nonstationary.

        Args:
            data (np.ndarray): observed data

        Returns:
            log probs (np.ndarray): log probability as defined above

        """
        # inds = np.arange(self.num_states)
        # return vmap(lambda i: self.distribution(i, covariates=covariates, metadata=metadata).log_prob(inds))(inds)
        raise NotImplementedError

    def m_step(self, dataset, posteriors, covariates=None, metadata=None) -> None:
        """Update the transition parameters in an M step given posteriors
        over the latent states. 
        
        Update is performed in place.

        Args:
            dataset (np.ndarray): the observed dataset with shape (B, T, D)
            posteriors (HMMPosterior): posteriors over the latent states with leaf shape (B, ...)
            covariates (PyTree, optional): optional covariates with leaf shape (B, T, ...).
                Defaults to None.
            metadata (PyTree, optional): optional metadata with leaf shape (B, ...).
                Defaults to None.
        """
        # TODO: implement generic m-step
        raise NotImplementedError


@register_pytree_node_class
class StationaryTransitions(Transitions):
    """
    Basic transition model with a fixed transition matrix.
    """
    def __init__(self,
                 num_states: int,
                 transition_matrix=None,
                 transition_distribution: ssmd.Categorical=None,
                 transition_distribution_prior: ssmd.Dirichlet=None) -> None:
        super(StationaryTransitions, self).__init__(num_states)

        assert transition_matrix is not None or transition_distribution is not None

        if transition_matrix is not None:
            self._distribution = ssmd.Categorical(logits=np.log(transition_matrix))
        else:
            self._distribution = transition_distribution

        if transition_distribution_prior is None:
            num_states = self._distribution.probs_parameter().shape[-1]
            transition_distribution_prior = \
                ssmd.Dirichlet(1.1 * np.ones((num_states, num_states)))
        self._prior = transition_distribution_prior

    def tree_flatten(self):
        children = (self._distribution, self._prior)
        aux_data = self.num_states
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        distribution, prior = children
        return cls(aux_data,
                   transition_distribution=distribution,
                   transition_distribution_prior=prior)

    @property
    def transition_matrix(self):
        return self._distribution.probs_parameter()

    def distribution(self, state, covariates=None, metadata=None):
        return self._distribution[state]

    def log_transition_matrices(self, data, covariates=None, metadata=None):
        log_P = self._distribution.logits_parameter()
        log_P -= spsp.logsumexp(log_P, axis=1, keepdims=True)
        return log_P

    def m_step(self, dataset, posteriors, covariates=None, metadata=None):
        stats = np.sum(posteriors.expected_transitions, axis=0)
        stats += self._prior.concentration
        conditional = ssmd.Categorical.compute_conditional_from_stats(stats)
        self._distribution = ssmd.Categorical.from_params(conditional.mode())
        return self


@register_pytree_node_class
class SimpleStickyTransitions(Transitions):
    """
    HMM transition model where diagonal elements are a learned
    parameter (stay_probability) and off-diagonal elements are uniform.
    That is, for a model with n hidden states, the diagonal entries
    of the transition matrix are `stay_probability`, and the off-diagonal
    entries are `(1 - stay_probability) / (n - 1)`.
    """
    def __init__(self,
                 num_states: int,
                 stay_probability: float=None,
                 transition_distribution: ssmd.Categorical=None,
                 transition_distribution_prior: ssmd.Beta=None) -> None:

        super(SimpleStickyTransitions, self).__init__(num_states)

        assert transition_distribution is not None or stay_probability is not None

        # If the transition matrix is given, recompute it given stay_probability.
        if transition_distribution is None:
            assert (stay_probability >= 0) and (stay_probability <= 1)
            self.stay_probability = np.float32(stay_probability)  # prevent weak typing
            self._distribution = ssmd.Categorical(
                logits=self._recompute_log_transition_matrix()
            )

        # Use specified transition matrix.
        else:
            self.stay_probability = transition_distribution.probs_parameter()[0, 0]
            self._distribution = transition_distribution

        # default prior, expected dwell prob = 0.9
        if transition_distribution_prior is None:
            transition_distribution_prior = ssmd.Beta(9, 1)
        self._prior = transition_distribution_prior

    def tree_flatten(self):
        children = (self.stay_probability, self._distribution, self._prior)
        aux_data = self.num_states
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        num_states = aux_data
        stay_probability, distribution, prior = children
        return cls(num_states, stay_probability,
                   transition_distribution=distribution,
                   transition_distribution_prior=prior)

    def _recompute_log_transition_matrix(self):
        T = np.full(
            (self.num_states, self.num_states),
            np.log((1 - self.stay_probability) / (self.num_states - 1))
        )
        return (
            T.at[np.diag_indices_from(T)].set(np.log(self.stay_probability))
        )

    @property
    def transition_matrix(self):
        return self._distribution.probs_parameter()
    
    def log_transition_matrices(self, data, covariates=None, metadata=None):
        log_P = self._distribution.logits_parameter()
        log_P -= spsp.logsumexp(log_P, axis=1, keepdims=True)
        return log_P

    def distribution(self, state, covariates=None, metadata=None):
        return self._distribution[state]

    def m_step(self, dataset, posteriors, covariates=None, metadata=None):

        # Sum over trials to compute num_states x num_states matrix
        # where i, j holds the expected number of transitions from
        # state i to state j.
        stats = np.sum(posteriors.expected_transitions, axis=0)

        # Compute sufficient statistics of posterior.
        #  c1 = number of observed stays + pseudo-observed stays from the prior.
        #  c0 = number of observed jumps + pseudo-observed jumps from the prior.
        c1 = (
            np.sum(stats[np.diag_indices_from(stats)]) +
            self._prior.concentration1
        )
        c1_plus_c0 = (
            np.sum(stats) +
            self._prior.concentration1 +
            self._prior.concentration0
        )
        self.stay_probability = \
            ssmd.Bernoulli.compute_conditional_from_stats((c1, c1_plus_c0 - c1)).mode()

        # Recompute the log transition matrix.
        self._distribution = ssmd.Categorical(
            logits=self._recompute_log_transition_matrix()
        )

        return self


# ---- ssm/inference/em.py ----
"""
General EM routines
"""
import warnings
import jax.numpy as np
from jax import jit, vmap
# from ssm.utils import Verbosity, ensure_has_batch_dim, ssm_pbar  # scaffolding: ssm is this file; tensorflow_probability is not installed, stand-ins above


@ensure_has_batch_dim(model_arg="model")
def em(model,
       data,
       covariates=None,
       metadata=None,
       num_iters=100,
       tol=1e-4,
       verbosity=Verbosity.DEBUG,
    ):
    """Fit a model using EM.

    Assumes the model has the following methods for EM:

        - `model.e_step(data)` (i.e. E-step)
        - `model.m_step(dataset, posteriors)`
        - `model.marginal_likelihood(data, posterior)`

    Args:
        model (ssm.base.SSM): the model to be fit
        data (PyTree): the observed data with leaf shape (B, T, D).
        covariates (PyTree, optional): optional covariates with leaf shape (B, T, ...).
            Defaults to None.
        metadata (PyTree, optional): optional metadata with leaf shape (B, ...).
            Defaults to None.
        num_iters (int, optional): number of iterations of EM fit. Defaults to 100.
        tol (float, optional): tolerance in marginal lp to declare convergence. Defaults to 1e-4.
        verbosity (ssm.utils.Verbosity, optional): verbosity of fit. Defaults to Verbosity.DEBUG.

    Returns:
        log_probs: log probabilities across EM iterations
        model: the fitted model
        posterior: the posterior over the inferred latent states
    """

    @jit
    def update(model):
        posterior = model.e_step(data, covariates=covariates, metadata=metadata)
        lp = model.marginal_likelihood(data, posterior, covariates=covariates, metadata=metadata).sum()
        model = model.m_step(data, posterior, covariates=covariates, metadata=metadata)
        return model, posterior, lp

    # Run the EM algorithm to convergence
    log_probs = []
    pbar = ssm_pbar(num_iters, verbosity, "Iter {} LP: {:.3f}", 0, np.nan)

    if verbosity > Verbosity.OFF:
        pbar.set_description("[jit compiling...]")

    for itr in pbar:
        model, posterior, lp = update(model)
        assert np.isfinite(lp), "NaNs in marginal log probability"

        log_probs.append(lp)
        if verbosity > Verbosity.OFF:
            pbar.set_description("LP: {:.3f}".format(lp))

        # Check for convergence
        if itr > 1:
            if log_probs[-1] < log_probs[-2]:
                pass # warnings.warn(UserWarning("LP is decreasing in EM fit!"))

            if abs(log_probs[-1] - log_probs[-2]) < tol and verbosity > Verbosity.OFF:
                pbar.set_description("[converged] LP: {:.3f}".format(lp))
                pbar.refresh()
                break

    return np.array(log_probs), model, posterior


# ---- scaffolding: a small sticky HMM (fixed initial distribution and unit-variance Gaussian emissions) that uses
# SimpleStickyTransitions for its transitions and exposes the e_step/m_step/marginal_likelihood that em calls ----
from jax.tree_util import register_pytree_node_class as _register  # scaffolding
from jax import value_and_grad as _value_and_grad  # scaffolding


def _log_normalizer(log_pi0, log_P, log_lik):  # scaffolding: HMM forward pass
    def step(alpha, ll):  # scaffolding
        alpha = spsp.logsumexp(alpha[:, None] + log_P, axis=0) + ll  # scaffolding
        return alpha, None  # scaffolding
    alpha, _ = lax.scan(step, log_pi0 + log_lik[0], log_lik[1:])  # scaffolding
    return spsp.logsumexp(alpha)  # scaffolding


@_register  # scaffolding
class _StickyGaussianHMM:  # scaffolding
    def __init__(self, transitions, means):  # scaffolding
        self._transitions = transitions  # scaffolding
        self._means = means  # scaffolding
        self.emissions_shape = (means.shape[-1],)  # scaffolding

    def tree_flatten(self):  # scaffolding
        return (self._transitions, self._means), None  # scaffolding

    @classmethod  # scaffolding
    def tree_unflatten(cls, aux, children):  # scaffolding
        return cls(*children)  # scaffolding

    def e_step(self, data, covariates=None, metadata=None):  # scaffolding: batched posterior (B, ...)
        def one(x):  # scaffolding
            K = self._transitions.num_states  # scaffolding
            log_lik = -0.5 * np.sum((x[:, None, :] - self._means[None]) ** 2, axis=-1)  # scaffolding
            log_P = self._transitions.log_transition_matrices(x)  # scaffolding
            lp, g = _value_and_grad(_log_normalizer, argnums=1)(-np.log(K) * np.ones(K), log_P, log_lik)  # scaffolding
            return lp, g  # scaffolding
        lps, Ezz = vmap(one)(data)  # scaffolding
        return SimpleNamespace(log_normalizer=lps, expected_transitions=Ezz)  # scaffolding

    def marginal_likelihood(self, data, posterior, covariates=None, metadata=None):  # scaffolding
        return posterior.log_normalizer  # scaffolding

    def m_step(self, data, posterior, covariates=None, metadata=None):  # scaffolding
        self._transitions = self._transitions.m_step(data, posterior, covariates=covariates, metadata=metadata)  # scaffolding
        return self  # scaffolding


jax.tree_util.register_pytree_node(type(SimpleNamespace()), lambda s: (tuple(vars(s).values()), tuple(vars(s).keys())), lambda k, v: SimpleNamespace(**dict(zip(k, v))))  # scaffolding: posterior namespace as a pytree (ssm uses a registered posterior class)

import numpy as onp  # scaffolding
onp.random.seed(0)  # scaffolding
states = onp.repeat(onp.arange(3), 40)  # scaffolding: 3 long segments, i.e. sticky dynamics
means = np.array([[-4.0, 0.0], [0.0, 4.0], [4.0, 0.0]])  # scaffolding
data = np.array(onp.asarray(means)[states] + onp.random.randn(120, 2), dtype=np.float32)  # scaffolding
model = _StickyGaussianHMM(SimpleStickyTransitions(3, stay_probability=0.8), means)  # scaffolding: the float stay_probability, as in GaussianTWARHMM's time_constant_stay_probability
try:  # scaffolding
    log_probs, model, posterior = em(model, data, num_iters=5, tol=-1.0, verbosity=Verbosity.OFF)  # scaffolding: tol=-1 runs all 5 iterations
    print("EM iterations:", len(log_probs), "stay_probability:", float(model._transitions.stay_probability))  # scaffolding
    _report({"jit(update)"}, len(log_probs))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
