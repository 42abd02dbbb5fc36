# source: https://github.com/yardenas/pacoh-smbrl/commit/08441cd6943e9dfb3d9e9c260529750f3575981f
# expect: bad-static-spec at line 249
# runtime: ERROR ValueError
# why: predict is jitted with static_argnums=(2) but takes two parameters, which jax 0.10.2 rejects with ValueError when the module is imported; infer_posterior's static_argnums=(3, 5) also names the PRNG key (an unhashable array) instead of update_steps.
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



# pacoh-smbrl (PACOH meta-learned priors for safe model-based RL): smbrl/models.py (ParamsDistribution),
# smbrl/pacoh_nn.py and tests/test_pacoh.py at the parent of 08441cd, flattened in that order.
import copy
import sys  # scaffolding
import functools
from types import SimpleNamespace  # scaffolding
from typing import Callable, Iterator, NamedTuple, Tuple

import equinox as eqx
import jax
import jax.flatten_util
import jax.nn as jnn
import jax.numpy as jnp
import numpy as np
import optax
from jaxtyping import PyTree

jax.tree_map = jax.tree_util.tree_map  # scaffolding: removed from jax since the commit


class _MultivariateNormalDiag:  # scaffolding: stand-in for distrax (not installed)
    def __init__(self, loc, scale_diag):  # scaffolding
        self.loc, self.scale_diag = loc, scale_diag  # scaffolding

    def log_prob(self, x):  # scaffolding
        z = (x - self.loc) / self.scale_diag  # scaffolding
        return jnp.sum(-0.5 * z**2 - jnp.log(self.scale_diag) - 0.5 * jnp.log(2 * jnp.pi), -1)  # scaffolding

    def sample(self, seed, sample_shape=()):  # scaffolding
        return self.loc + self.scale_diag * jax.random.normal(seed, tuple(sample_shape) + self.loc.shape)  # scaffolding


distrax = SimpleNamespace(MultivariateNormalDiag=_MultivariateNormalDiag, Distribution=object)  # scaffolding


class ParamsDistribution(NamedTuple):
    mus: PyTree
    stddev: PyTree

    def log_prob(self, other: PyTree) -> jax.Array:
        dist, self_flat_params, _ = self._to_dist()
        flat_params, _ = jax.flatten_util.ravel_pytree(other)
        if len(flat_params) != len(self_flat_params):
            quotient, remainder = divmod(len(flat_params), len(self_flat_params))
            assert (
                remainder == 0
            ), "Given parameters are not given in the form of batches of parameters."
            flat_params = flat_params.reshape((quotient, len(self_flat_params)))
        return dist.log_prob(flat_params)

    def sample(self, seed: jax.Array, n_samples: int) -> PyTree:
        dist, _, pytree_def = self._to_dist()
        samples = dist.sample(seed=seed, sample_shape=(n_samples,))
        pytree_def = jax.vmap(pytree_def)
        return pytree_def(samples)

    def _to_dist(
        self,
    ) -> tuple[distrax.Distribution, jax.Array, Callable[[jax.Array], PyTree]]:
        self_flat_mus, pytree_def = jax.flatten_util.ravel_pytree(self.mus)
        self_flat_stddevs, _ = jax.flatten_util.ravel_pytree(self.stddev)
        dist = distrax.MultivariateNormalDiag(
            self_flat_mus, jnp.ones_like(self_flat_mus) * self_flat_stddevs
        )
        return dist, self_flat_mus, pytree_def


def meta_train(
    data,
    hyper_prior,
    hyper_posterior,
    optimizer,
    opt_state,
    iterations,
    n_prior_samples,
):
    hyper_posterior = copy.deepcopy(hyper_posterior)
    for i in range(iterations):
        meta_batch_x, meta_batch_y = next(data)
        hyper_posterior, opt_state, log_probs = train_step(
            meta_batch_x,
            meta_batch_y,
            hyper_prior,
            hyper_posterior,
            jax.random.PRNGKey(0),
            n_prior_samples,
            optimizer,
            opt_state,
        )
        if i % 100 == 0:
            print(f"Iteration {i} log probs: {log_probs}")
    return hyper_posterior


@functools.partial(jax.jit, static_argnums=(5, 6))
def train_step(
    meta_batch_x,
    meta_batch_y,
    hyper_prior,
    hyper_posterior,
    key,
    n_prior_samples,
    optimizer,
    opt_state,
):
    grad_fn = jax.value_and_grad(
        lambda hyper_posterior: particle_loss(
            meta_batch_x,
            meta_batch_y,
            hyper_posterior,
            hyper_prior,
            key,
            n_prior_samples,
        )
    )
    # vmap to compute the grads for each particle in the ensemble with respect
    # to its prediction's log probability.
    log_probs, log_prob_grads = jax.vmap(grad_fn)(hyper_posterior)
    # Compute the particles' kernel matrix and its per-particle gradients.
    num_particles = jax.tree_util.tree_flatten(log_prob_grads)[0][0].shape[0]
    particles_matrix, reconstruct_tree = _to_matrix(hyper_posterior, num_particles)
    kxx, kernel_vjp = jax.vjp(
        lambda x: rbf_kernel(x, particles_matrix), particles_matrix
    )
    # Summing along the 'particles axis' to compute the per-particle gradients, see
    # https://jax.readthedocs.io/en/latest/notebooks/autodiff_cookbook.html
    kernel_grads = kernel_vjp(jnp.ones(kxx.shape))[0]
    stein_grads = (
        jnp.matmul(kxx, _to_matrix(log_prob_grads, num_particles)[0]) + kernel_grads
    ) / num_particles
    stein_grads = reconstruct_tree(stein_grads.ravel())
    updates, new_opt_state = optimizer.update(stein_grads, opt_state)
    new_params = optax.apply_updates(hyper_posterior, updates)
    return (ParamsDistribution(*new_params), new_opt_state, log_probs.mean())


def _to_matrix(params, num_particles):
    flattened_params, reconstruct_tree = jax.tree_util.ravel_pytree(params)
    matrix = flattened_params.reshape((num_particles, -1))
    return matrix, reconstruct_tree


def particle_loss(
    meta_batch_x,
    meta_batch_y,
    particle,
    hyper_prior,
    key,
    n_prior_samples,
):
    def estimate_mll(x, y):
        prior_samples = particle.sample(key, n_prior_samples)
        # First vmap along the batch dimension.
        evaluate_ensemble = lambda model, x: jax.vmap(model)(x)
        # then vmap over members of the ensemble.
        per_sample_pred = eqx.filter_vmap(
            evaluate_ensemble, in_axes=(eqx.if_array(0), None)
        )
        y_hat, stddevs = per_sample_pred(prior_samples, x)
        log_likelihood = distrax.MultivariateNormalDiag(y_hat, stddevs).log_prob(y)
        batch_size = x.shape[0]
        mll = jax.scipy.special.logsumexp(
            log_likelihood, axis=0, b=jnp.sqrt(batch_size)
        ) - np.log(n_prior_samples)
        return mll

    # vmap estimate_mll over the task batch dimension, as specified
    # @ Algorithm 1 PACOH with SVGD approximation of Q∗ (MLL_Estimator)
    # @ https://arxiv.org/pdf/2002.05551.pdf.
    mll = jax.vmap(estimate_mll)(meta_batch_x, meta_batch_y)
    log_prob_prior = hyper_prior.log_prob(particle)
    return -(mll + log_prob_prior).mean()


# Based on tf-probability implementation of batched pairwise matrices:
# https://github.com/tensorflow/probability/blob/f3777158691787d3658b5e80883fe1a933d48989/tensorflow_probability/python/math/psd_kernels/internal/util.py#L190
def rbf_kernel(x, y, bandwidth=None):
    row_norm_x = (x**2).sum(-1)[..., None]
    row_norm_y = (y**2).sum(-1)[..., None, :]
    pairwise = jnp.clip(row_norm_x + row_norm_y - 2.0 * jnp.matmul(x, y.T), 0.0)
    n_x = pairwise.shape[-2]
    bandwidth = bandwidth if bandwidth is not None else jnp.median(pairwise)
    bandwidth = 0.5 * bandwidth / jnp.log(n_x + 1)
    bandwidth = jnp.maximum(jax.lax.stop_gradient(bandwidth), 1e-5)
    k_xy = jnp.exp(-pairwise / bandwidth / 2)
    return k_xy


@functools.partial(jax.jit, static_argnums=(3, 5))
def infer_posterior(
    x,
    y,
    hyper_posterior,
    key,
    update_steps,
    learning_rate,
):
    # Sample prior parameters from the hyper-posterior to form an ensemble
    # of neural networks.
    prior = hyper_posterior.sample(key, 1)
    prior = jax.tree_util.tree_map(lambda x: x.reshape((-1,) + x.shape[2:]), prior)
    optimizer = optax.flatten(optax.adam(learning_rate))
    opt_state = optimizer.init(prior)

    def loss(model):
        y_hat, stddevs = model(x)
        log_likelihood = distrax.MultivariateNormalDiag(y_hat, stddevs).log_prob(y)
        return -log_likelihood.mean()

    def update(carry, _):
        model, opt_state = carry
        values, grads = jax.vmap(jax.value_and_grad(loss))(model)
        updates, opt_state = optimizer.update(grads, opt_state)
        model = optax.apply_updates(model, updates)
        return (model, opt_state), values.mean()

    (prior, _), losses = jax.lax.scan(update, (prior, opt_state), None, update_steps)
    return prior, losses


try:  # scaffolding: jit checks static_argnums when it is applied, i.e. when smbrl.pacoh_nn is imported
    @functools.partial(jax.jit, static_argnums=(2))
    def predict(posterior, x):
        prediction_fn = jax.vmap(posterior, in_axes=(0, None))
        y_hat, stddev = prediction_fn(x)
        return y_hat, stddev
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
    sys.exit(0)  # scaffolding: the import of smbrl.pacoh_nn (and so the test) stops here


def make_hyper_prior(model):
    mean_prior_over_mus = jax.tree_map(jnp.zeros_like, model)
    mean_prior_over_stddevs = jax.tree_map(jnp.zeros_like, mean_prior_over_mus)
    hyper_prior = ParamsDistribution(
        ParamsDistribution(mean_prior_over_mus, mean_prior_over_stddevs),
        1.0,
    )
    return hyper_prior


def make_hyper_posterior(make_model, key, n_particles):
    init_ensemble = jax.vmap(make_model)
    particles_mus = init_ensemble(jnp.asarray(jax.random.split(key, n_particles)))
    particle_stddevs = jax.tree_map(lambda x: jnp.ones_like(x) * 1e-4, particles_mus)
    hyper_posterior = ParamsDistribution(particles_mus, particle_stddevs)
    return hyper_posterior


class SinusoidRegression:
    def __init__(
        self,
        meta_batch_size: int,
        num_train_shots: int,
        num_test_shots: int,
        seed: int = 666,
    ):
        self.meta_batch_size = meta_batch_size
        self.num_train_shots = num_train_shots
        self.num_test_shots = num_test_shots
        self.rs = np.random.RandomState(seed)

    @property
    def train_set(
        self,
    ):
        while True:
            yield self._make_batch(self.num_train_shots)[0]

    @property
    def test_set(
        self,
    ) -> Iterator[Tuple[Tuple[np.ndarray, np.ndarray], Tuple[np.ndarray, np.ndarray]]]:
        while True:
            yield self._make_batch(self.num_test_shots)

    def _make_batch(self, num_shots):
        # Select amplitude and phase for the task
        amplitudes = []
        phases = []
        for _ in range(self.meta_batch_size):
            amplitudes.append(self.rs.uniform(low=0.1, high=0.75))
            phases.append(self.rs.uniform(low=-np.pi, high=np.pi))

        def get_batch(num_shots):
            xs, ys = [], []
            for amplitude, phase in zip(amplitudes, phases):
                if num_shots > 0:
                    x = self.rs.uniform(low=-5.0, high=5.0, size=(num_shots, 1))
                else:
                    x = np.linspace(-5.0, 5.0, 1000)[:, None]
                y = amplitude * np.sin(x + phase)
                xs.append(x)
                ys.append(y)
            return np.stack(xs), np.stack(ys)

        (x1, y1), (x2, y2) = get_batch(num_shots), get_batch(-1)
        return (x1, y1), (x2, y2)


class Heterescedastic(eqx.Module):
    layers: list[eqx.nn.Linear]
    mu: eqx.nn.Linear
    stddev: jax.Array

    def __init__(self, in_size, hidden_size, out_size, key) -> None:
        keys = jax.random.split(key, 4)
        self.layers = [
            eqx.nn.Linear(in_size, hidden_size, key=keys[0]),
            eqx.nn.Linear(hidden_size, hidden_size, key=keys[1]),
            eqx.nn.Linear(hidden_size, hidden_size, key=keys[2]),
        ]
        self.mu = eqx.nn.Linear(hidden_size, out_size, key=keys[3])
        self.stddev = jnp.ones((out_size,)) * 1e-5

    def __call__(self, x: jax.Array) -> jax.Array:
        for layer in self.layers:
            x = jnn.relu(layer(x))
        return self.mu(x), self.stddev


def test_training():
    dataset = SinusoidRegression(16, 5, 5)
    make_model = lambda key: Heterescedastic(1, 16, 1, key)
    key = jax.random.PRNGKey(0)
    hyper_prior = make_hyper_prior(make_model(key))
    hyper_posterior = make_hyper_posterior(make_model, key, 10)
    opt = optax.flatten(optax.adam(3e-4))
    opt_state = opt.init(hyper_posterior)
    hyper_posterior = meta_train(
        dataset.train_set, hyper_prior, hyper_posterior, opt, opt_state, 0, 10  # scaffolding: 1000 meta-training iterations in the test, 0 here
    )
    infer_posteriors = jax.vmap(
        infer_posterior, in_axes=(0, 0, None, None, None, None)
    )
    key, next_key = jax.random.split(key)
    (context_x, context_y), (test_x, test_y) = next(dataset.test_set)
    posteriors, losses = infer_posteriors(
        context_x, context_y, hyper_posterior, next_key, 20, 3e-4
    )
    # predict = jax.vmap(predict, (0, 0, None))
    # predictions = predict(posteriors, test_x, apply)
    # posteriors = hyper_posterior.sample(next(seed_sequence), 1)
    # predict(posteriors, test_x, apply)


try:  # scaffolding
    test_training()  # scaffolding
    _report({"jit(infer_posterior)"}, 1)  # scaffolding: one vmapped call over the 16 tasks
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
