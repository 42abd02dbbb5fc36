# source: https://github.com/diego-gonher/jax_bnre_hmc/blob/aa2918b5f59b17ea28c0614122faaa1494e8201a/experiments/linear_toy/hmc.py
# expect: jit-in-loop-or-body at line 174
# runtime: COMPILES 3 CALLS 3
# why: for every observation the script builds a new log_ratio/potential closure and a new NUTS/MCMC around it, so numpyro's jitted sampling loop is traced and compiled again per observation although only x_obs (an array of the same shape) changes.

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
# experiments/linear_toy/hmc.py of diego-gonher/jax_bnre_hmc at aa2918b, with the helpers it imports from
# src/jax_bnre_hmc/hmc.py and model.py (docstrings cut); checkpoint loading, HDF5 output and plots cut
from dataclasses import dataclass
from typing import Callable

import jax
import jax.numpy as jnp
from flax import linen as nn
import numpyro
from numpyro.infer import MCMC, NUTS
numpyro.set_host_device_count(4)

Array = jax.Array

_ACTIVATIONS = {"tanh": jax.nn.tanh, "relu": jax.nn.relu}


class RatioEstimatorMLP(nn.Module):
    hidden_dims: tuple = (50, 50, 50)
    activation: str = "tanh"
    norm: str = "layernorm"   # "layernorm" or "none"

    @nn.compact
    def __call__(self, theta, x):
        z = jnp.concatenate([theta, x], axis=-1)
        h = z
        for d in self.hidden_dims:
            h = nn.Dense(d)(h)
            if self.norm == "layernorm":
                h = nn.LayerNorm()(h)
            h = _ACTIVATIONS[self.activation](h)
        logit = nn.Dense(1)(h)  # (B, 1)
        return jnp.squeeze(logit, axis=-1)  # (B,)


@dataclass(frozen=True)
class BoxPrior:
    low: jnp.ndarray   # (D,)
    high: jnp.ndarray  # (D,)


def z_to_theta(z, prior):
    """Unconstrained -> box via sigmoid."""
    u = jax.nn.sigmoid(z)                       # (D,) in (0,1)
    theta = prior.low + (prior.high - prior.low) * u
    return theta, u


def logabsdet_dtheta_dz(u, prior, eps: float = 1e-12):
    return jnp.sum(
        jnp.log(prior.high - prior.low)
        + jnp.log(jnp.clip(u, eps, 1.0))
        + jnp.log(jnp.clip(1.0 - u, eps, 1.0))
    )


def make_log_ratio_fn(apply_fn, params, x_obs):
    x_obs = jnp.asarray(x_obs, dtype=jnp.float32)

    def log_ratio(theta):
        theta = jnp.asarray(theta, dtype=jnp.float32)
        # shape to (1, D) and (1, X)
        logits = apply_fn(params, theta[None, :], x_obs[None, ...])
        return jnp.squeeze(logits, axis=0)  # scalar

    return log_ratio


def make_potential_fn(log_ratio_fn, prior, x_obs=None):
    def potential(z):
        theta, u = z_to_theta(z, prior)
        ladj = logabsdet_dtheta_dz(u, prior)
        lr = log_ratio_fn(theta)
        return -(lr + ladj)

    return potential


def run_nuts(potential_fn, rng_key, init_z, num_warmup=1000, num_samples=1000, num_chains=4, **nuts_kwargs):
    """Run NUTS with a custom potential_fn."""
    kernel = NUTS(potential_fn=potential_fn, **nuts_kwargs)
    mcmc = MCMC(kernel, num_warmup=num_warmup, num_samples=num_samples, num_chains=num_chains,
                progress_bar=False)  # scaffolding: progress_bar off
    mcmc.run(rng_key, init_params=init_z)
    return mcmc


model = RatioEstimatorMLP(hidden_dims=(50, 50, 50), activation="tanh", norm="layernorm")
params = model.init(jax.random.PRNGKey(1), jnp.zeros((1, 2)), jnp.zeros((1, 10)))  # scaffolding: stands in for load_best_params


def simulate_linear_dataset(key, n, n_points, sigma, m_low, m_high, b_low, b_high):
    key_m, key_b, key_noise = jax.random.split(key, 3)

    m = jax.random.uniform(key_m, (n,), minval=m_low, maxval=m_high)
    b = jax.random.uniform(key_b, (n,), minval=b_low, maxval=b_high)
    theta = jnp.stack([m, b], axis=-1)  # (n, 2)

    x_grid = jnp.arange(n_points, dtype=jnp.float32)  # (n_points,)
    y_clean = m[:, None] * x_grid[None, :] + b[:, None]  # (n, n_points)

    noise = sigma * jax.random.normal(key_noise, (n, n_points))
    y_noisy = y_clean + noise

    return theta.astype(jnp.float32), y_noisy.astype(jnp.float32)


N_OBSERVATIONS = 3  # scaffolding: 3 instead of 500

key = jax.random.PRNGKey(42)
theta_true, x_obs = simulate_linear_dataset(
        key=key,
        n=N_OBSERVATIONS,
        n_points=10,
        sigma=0.1,
        m_low=0.0,
        m_high=1.0,
        b_low=0.0,
        b_high=1.0,
    )

prior = BoxPrior(
    low=jnp.array([0.0, 0.0], dtype=jnp.float32),
    high=jnp.array([ 1.0,  1.0], dtype=jnp.float32),
)

posteriors_list = []

# Iterate over observations
for i in range(N_OBSERVATIONS):
    x_obs_i = x_obs[i].squeeze()            # now shape (10,)
    theta_true_i = theta_true[i].squeeze()  # shape (2,)

    # 4) log-ratio wrapper
    log_ratio = make_log_ratio_fn(model.apply, params, x_obs_i)

    # 6) potential in unconstrained z-space
    potential = make_potential_fn(log_ratio, prior)

    # 7) init positions for chains
    num_chains = 4
    D = prior.low.shape[0]
    init_z = jnp.zeros((num_chains, D), dtype=jnp.float32)

    # 8) run NUTS
    mcmc = run_nuts(potential, jax.random.PRNGKey(0), init_z, num_warmup=50, num_samples=50, num_chains=num_chains)  # scaffolding: 50/50 instead of 1000/1000

    z_samples = mcmc.get_samples(group_by_chain=False)  # (num_chains*num_samples, D)
    theta_samples, _ = jax.vmap(lambda z: z_to_theta(z, prior))(z_samples)

    posteriors_list.append(theta_samples)

_report({"jit(_fun)"}, N_OBSERVATIONS)  # scaffolding
