# source: https://github.com/alonfnt/bayex/issues/64
# expect: shape-churn at line 390
# runtime: COMPILES 4 CALLS 20
# why: Optimizer.fit grows the padded observation buffers outside jit whenever they fill up, so the jitted _fit sees new array lengths and recompiles at every expansion of the loop.
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
from collections import namedtuple
from typing import NamedTuple, Union, Callable, Tuple
import numpy as np
from functools import partial
from typing import Any, Optional

import jax
import jax.numpy as jnp
from jax.scipy.linalg import cholesky, solve_triangular
import optax
import types

MASK_VARIANCE = 1e12 # High variance for masked points to not affect the process.

GPParams = namedtuple("GPParams", ["noise", "amplitude", "lengthscale"])
GPState = namedtuple("GPState", ["params", "momentums", "scales"])

def exp_quadratic(x1, x2, mask):
    distance = jnp.sum((x1 - x2) ** 2)
    return jnp.exp(-distance) * mask


def cov(x1, x2, mask1, mask2):
    M = jnp.outer(mask1, mask2)
    k = exp_quadratic
    return jax.vmap(jax.vmap(k, in_axes=(None, 0, 0)), in_axes=(0, None, 0))(x1, x2, M)


def softplus(x):
    return jnp.logaddexp(x, 0.0)


def gaussian_process(
    params,
    x: jnp.ndarray,
    y: jnp.ndarray,
    mask,
    xt: Optional[jnp.ndarray] = None,
    compute_ml: bool = False,
) -> Any:
    # Number of points in the prior distribution
    n = x.shape[0]

    noise, amp, ls = jax.tree_util.tree_map(softplus, params)

    ymean = jnp.mean(y, where=mask.astype(bool))
    y = (y - ymean) * mask
    x = x / ls
    K = amp * cov(x, x, mask, mask) + (jnp.eye(n) * (noise + 1e-6))
    K += jnp.eye(n) * (1.0 - mask.astype(float)) * MASK_VARIANCE
    L = cholesky(K, lower=True)
    K_inv_y = solve_triangular(L.T, solve_triangular(L, y, lower=True), lower=False)

    if compute_ml:
        logp = 0.5 * jnp.dot(y.T, K_inv_y)
        logp += jnp.sum(jnp.log(jnp.diag(L)))
        logp -= jnp.sum(1.0 - mask) * 0.5 * jnp.log(MASK_VARIANCE)
        logp += (jnp.sum(mask) / 2) * jnp.log(2 * jnp.pi)
        logp += jnp.sum(-0.5 * jnp.log(2*jnp.pi) - jnp.log(amp) - jnp.log(amp)**2)
        return jnp.sum(logp)

    assert xt is not None, "xt can't be None during prediction."
    xt = xt / ls

    # Compute the covariance with the new point xt
    mask_t = jnp.ones(len(xt))==1
    K_cross = amp * cov(x, xt, mask, mask_t)

    K_inv_y = K_inv_y * mask # masking
    pred_mean = jnp.dot(K_cross.T, K_inv_y) + ymean
    v = solve_triangular(L, K_cross, lower=True)
    pred_var = amp * cov(xt, xt, mask_t, mask_t) - v.T @ v
    pred_std = jnp.sqrt(jnp.maximum(jnp.diag(pred_var), 1e-10))
    return pred_mean, pred_std


marginal_likelihood = partial(gaussian_process, compute_ml=True)
grad_fun = jax.jit(jax.grad(marginal_likelihood))
predict = jax.jit(partial(gaussian_process, compute_ml=False))

def neg_log_likelihood(params, x, y, mask):
    ll = marginal_likelihood(params, x, y, mask)

    # Weak priors to keep things sane
    # params = jax.tree.map(softplus, params)
    priors = GPParams(-8.0, 1.0, 1.0)
    log_prior = jax.tree.map(lambda p, m: jnp.sum((p - m) ** 2), params, priors)
    log_prior = sum(jax.tree.leaves(log_prior))
    log_posterior = ll - 0.5 * log_prior
    return -log_posterior


def posterior_fit(
    y: jax.Array,
    x: jax.Array,
    mask: jax.Array,
    params: GPParams,
    lr: float = 1e-3,
    trainsteps: int = 100,
) -> GPState:

    optimizer = optax.chain(optax.clip_by_global_norm(10.0), optax.adamw(lr))
    opt_state = optimizer.init(params)

    def train_step(carry, _):
        params, opt_state = carry
        grads = jax.grad(neg_log_likelihood)(params, x, y, mask)
        updates, opt_state = optimizer.update(grads, opt_state, params=params)
        params = optax.apply_updates(params, updates)
        return (params, opt_state), None

    (params, _), __ = jax.lax.scan(train_step, (params, opt_state), None, length=trainsteps)
    return params


class Domain:
    def __init__(self, dtype):
        self.dtype = dtype

    def __hash__(self):
        return hash(self.dtype)

    def __eq__(self, other):
        return self.dtype == other.dtype

    def transform(self, x: jax.Array):
        raise NotImplementedError

    def sample(self, key: jax.Array, shape: Tuple):
        raise NotImplementedError


class Real(Domain):
    """
    Continuous real-valued domain with clipping.

    Represents a parameter that can take real values within [lower, upper].
    """

    def __init__(self, lower, upper):
        """
        Initializes a real domain with bounds.

        Args:
            lower: Lower bound (inclusive).
            upper: Upper bound (inclusive).
        """
        assert isinstance(lower, float) or isinstance(lower, int), "Lower bound must be a float"
        assert isinstance(upper, float) or isinstance(lower, int), "Upper bound must be a float"
        assert lower < upper, "Lower bound must be less than upper bound"

        self.lower = float(lower)
        self.upper = float(upper)
        super().__init__(dtype=jax.numpy.float32)

    def __hash__(self):
        return hash((self.lower, self.upper))

    def __eq__(self, other):
        return self.lower == other.lower and self.upper == other.upper

    def transform(self, x: jax.Array):
        """
        Clips values to the domain range [lower, upper].

        Args:
            x: Input values.

        Returns:
            Clipped values within bounds.
        """
        return jax.numpy.clip(x, self.lower, self.upper)

    def sample(self, key: jax.Array, shape: Tuple):
        """
        Samples uniformly from the domain.

        Args:
            key: JAX PRNGKey.
            shape: Desired output shape.

        Returns:
            Sampled values clipped to the domain.
        """
        samples = jax.random.uniform(key, shape, minval=self.lower, maxval=self.upper)
        return self.transform(samples)



class OptimizerState(NamedTuple):
    """
    Container for the state of the Bayesian optimizer.

    Attributes:
        params (dict): Dictionary mapping parameter names to their
            corresponding padded JAX arrays of observed values.
        ys (jax.Array or np.ndarray): Array of objective values associated
            with the observed parameters. Includes padding.
        best_score (float): Best observed objective value so far.
        best_params (dict): Parameter configuration corresponding to
            the best_score.
        mask (jax.Array): Boolean array indicating which entries in
            `params` and `ys` are valid (i.e., not padding).
        gp_params (GPParams): Parameters of the Gaussian Process
            fitted to the observations.
    """
    params: dict
    ys: Union[jax.Array, np.ndarray]
    best_score: float
    best_params: dict
    mask: jax.Array
    gp_params: GPParams




# scaffolding: the acquisition functions and ParamSpace are not needed for fit(); minimal stand-ins
class ParamSpace:
    def __init__(self, domain):
        self.domain = domain


boacq = types.SimpleNamespace(expected_improvement=lambda *a: None, probability_improvement=lambda *a: None,
                              upper_confidence_bounds=lambda *a: None, lower_confidence_bounds=lambda *a: None)
# end scaffolding


class Optimizer:
    """
    Bayesian optimizer using Gaussian Processes and acquisition functions.

    This class manages the optimization loop for expensive black-box functions
    by modeling them with a Gaussian Process and selecting samples via
    acquisition functions such as EI, PI, UCB, or LCB.
    """

    def __init__(self, domain: dict, acq: str = 'EI', maximize: bool = False):
        """
        Initializes the optimizer.

        Args:
            domain: A dict mapping parameter names to domain objects (e.g., Real, Integer).
            acq: Acquisition function ('EI', 'PI', 'UCB', 'LCB').
            maximize: Whether to maximize or minimize the objective.
        """
        self.domain = domain
        self.sign = 1 if maximize else -1
        self.param_space = ParamSpace(domain)

        if acq == 'EI':
            self.acq = jax.jit(boacq.expected_improvement)
        elif acq == 'PI':
            self.acq = jax.jit(boacq.probability_improvement)
        elif acq == 'UCB':
            self.acq = jax.jit(boacq.upper_confidence_bounds)
        elif acq == 'LCB':
            self.acq = jax.jit(boacq.lower_confidence_bounds)
        else:
            raise ValueError(f"Acquisition function {acq} is not implemented")

    def init(self, ys: jax.Array, params: dict, noise_scale: float = -8.0):
        """
        Initializes the optimizer state from initial data.

        Args:
            ys: Objective values for the initial parameters.
            params: Dict of parameter arrays (same keys as domain).

        Returns:
            Initialized OptimizerState.
        """
        # Create a padded jax array for each parameter and each score.
        # In order to keep jax compilations at a bay.
        num_entries = len(ys)
        pad_value = int(np.ceil(len(ys) / 10) * 10)

        # Convert to jax arrays if they are not already
        ys = jnp.asarray(ys)
        ys = self.sign * ys
        params = jax.tree.map(lambda x: jnp.asarray(x), params)

        # Define padded arrays for the inputs and the outputs
        mask = jnp.zeros(shape=(pad_value,), dtype=jnp.bool_).at[:num_entries].set(True)
        ys = jnp.zeros(shape=(pad_value,), dtype=ys.dtype).at[:num_entries].set(ys)

        _params = {}
        for key, entries in params.items():
            # Assert that the parameter is in the domain dictionary
            assert key in self.domain, f"Parameter {key} is not in the domain"

            # Get dytpe from the domain and create a padded array
            dtype = self.domain[key].dtype
            values = jnp.zeros(shape=(pad_value,), dtype=dtype).at[:num_entries].set(entries)
            _params[key] = values

        # From the given observation, find the better one (either maxima or minima) and return the
        # initial optizer state.
        best_score = float(jnp.max(ys[mask]))
        best_params_idx = jnp.argmax(ys[mask])
        best_params = jax.tree.map(lambda x: x[mask][best_params_idx], _params)

        # Initialize the gaussian processes state
        gp_params = GPParams(
            noise=jnp.full((1, 1), 1. * noise_scale),
            amplitude=jnp.zeros((1, 1)),
            lengthscale=jnp.zeros((1, len(_params)))
        )

        # Fit to the current observations
        xs = jnp.stack([self.domain[key].transform(_params[key]) for key in _params], axis=1)
        gp_params = posterior_fit(ys, xs, mask=mask, params=gp_params)

        ys = self.sign * ys
        best_score = self.sign * best_score
        opt_state = OptimizerState(params=_params, ys=ys, best_score=best_score,
                                   best_params=best_params, mask=mask, gp_params=gp_params)

        return opt_state

    def expand(self, opt_state: OptimizerState):
        """
        Expands internal buffers if no space is available.

        Args:
            opt_state: Current optimizer state.

        Returns:
            OptimizerState with expanded storage.
        """
        current = jnp.sum(opt_state.mask)

        if current == len(opt_state.mask):
            pad_value = int(np.ceil(len(opt_state.mask)*2 / 10) * 10)
            diff = pad_value - len(opt_state.mask)
            mask = jnp.pad(opt_state.mask, (0, diff))
            ys = jnp.pad(opt_state.ys, (0, diff))
            params = {}
            for key in opt_state.params:
                params[key] = jnp.pad(opt_state.params[key], (0, diff))
        else:
            mask = opt_state.mask
            ys = opt_state.ys
            params = opt_state.params

        opt_state = OptimizerState(params=params, ys=ys, best_score=opt_state.best_score,
                                   best_params=opt_state.best_params, mask=mask,
                                   gp_params=opt_state.gp_params)
        return opt_state


    def fit(self, opt_state, y, new_params):
        """
        Updates optimizer state with a new observation.

        Args:
            opt_state: Current optimizer state.
            y: New objective value.
            new_params: Parameters that produced y.

        Returns:
            Updated OptimizerState.
        """
        opt_state = self.expand(opt_state) # Prompts recompilation
        opt_state = self._fit(opt_state, y, new_params)
        return opt_state


    @partial(jax.jit, static_argnums=(0,))
    def _fit(self, opt_state, y, new_params):
        last_idx = jnp.arange(len(opt_state.mask)) == jnp.argmin(opt_state.mask)
        mask = jnp.asarray(jnp.where(last_idx, True, opt_state.mask))
        ys = jnp.where(last_idx, y, opt_state.ys)
        params = jax.tree_util.tree_map(lambda x, y: jnp.where(last_idx, y, x), opt_state.params, new_params)

        xs = jnp.stack([self.domain[key].transform(params[key])
                        for key in params], axis=1)
        ys = self.sign * ys
        gp_params = posterior_fit(ys, xs, mask=mask, params=opt_state.gp_params)

        best_score = jnp.max(ys, where=mask, initial=-jnp.inf)
        best_params_idx = jnp.argmax(jnp.where(mask, ys, -jnp.inf))
        best_params = jax.tree_util.tree_map(lambda x: x[best_params_idx], params)

        ys = self.sign * ys
        best_score = self.sign * best_score
        opt_state = OptimizerState(params=params, ys=ys, best_score=best_score,
                                   best_params=best_params, mask=mask,
                                   gp_params=gp_params)
        return opt_state


# scaffolding: a BO-style loop observing a 1-D function, starting from 5 points and adding 20
def objective(x):
    return -(x - 0.3) ** 2


opt = Optimizer(domain={"x": Real(-2.0, 2.0)}, maximize=True)
xs0 = jnp.linspace(-2.0, 2.0, 5)
opt_state = opt.init(objective(xs0), {"x": xs0})
key = jax.random.PRNGKey(0)
calls = 0
for i in range(20):
    key, sub = jax.random.split(key)
    new_x = jax.random.uniform(sub, (), minval=-2.0, maxval=2.0)
    opt_state = opt.fit(opt_state, objective(new_x), {"x": new_x})
    calls += 1
_report({"jit(_fit)"}, calls)
