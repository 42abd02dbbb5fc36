# source: https://github.com/rlouf/blog-benchmark-rwmetropolis/blob/d1b463ab3e465726db1b9b55432eacded0de15c7/notebooks/gpu_random_walk_metropolis_jax.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: sample_jax rebuilds jax.vmap(rw_metropolis_sampler) on every call and passes the module-level logpdf as a static argument, but repeated calls with one configuration hit the cache: one compile.

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
from functools import partial

import jax
import jax.numpy as np
from jax.scipy.stats import norm
from jax.scipy.special import logsumexp

import numpy as onp

# don't do this at home, warnings are there for a reason
import warnings
warnings.filterwarnings('ignore')


@partial(jax.jit, static_argnums=(1,))
def rw_metropolis_kernel(rng_key, logpdf, position, log_prob):
    """Moves a single chain by one step using the Random Walk Metropolis algorithm."""
    key1, key2 = jax.random.split(rng_key)
    move_proposal = jax.random.normal(key1, shape=position.shape) * 0.1
    proposal = position + move_proposal
    proposal_log_prob = logpdf(proposal)

    log_uniform = np.log(jax.random.uniform(key2))
    do_accept = log_uniform < proposal_log_prob - log_prob

    position = np.where(do_accept, proposal, position)
    log_prob = np.where(do_accept, proposal_log_prob, log_prob)
    return position, log_prob


def mixture_logpdf(x):
    """Log probability distribution function of a gaussian mixture model."""
    dist_1 = partial(norm.logpdf, loc=-2.0, scale=1.2)  # scaffolding: jax.partial no longer exists
    dist_2 = partial(norm.logpdf, loc=0, scale=1)  # scaffolding: jax.partial
    dist_3 = partial(norm.logpdf, loc=3.2, scale=5)  # scaffolding: jax.partial
    dist_4 = partial(norm.logpdf, loc=2.5, scale=2.8)  # scaffolding: jax.partial
    log_probs = np.array([dist_1(x), dist_2(x), dist_3(x), dist_4(x)])
    weights = np.array([0.2, 0.3, 0.1, 0.4])
    return -logsumexp(np.log(weights) + log_probs)


@partial(jax.jit, static_argnums=(1, 2))
def rw_metropolis_sampler(rng_key, n_samples, logpdf, initial_position):
    """Generate samples using the Random Walk Metropolis algorithm."""

    def sampler_step(i, state):
        key, position, log_prob = state
        _, key = jax.random.split(key)
        new_position, new_log_prob = rw_metropolis_kernel(key, logpdf, position, log_prob)
        return (key, new_position, new_log_prob)

    logp = logpdf(initial_position)
    rng_key, position, log_prob = jax.lax.fori_loop(0, n_samples, sampler_step, (rng_key, initial_position, logp))
    return position


def sample_jax(rng_key, logpdf, n_dim, n_samples, n_chains):
    rng_keys = jax.random.split(rng_key, n_chains)  # (nchains,)
    initial_position = np.zeros((n_dim, n_chains))  # (n_dim, n_chains)
    run_mcmc = jax.vmap(rw_metropolis_sampler, in_axes=(0, None, None, 1),
                        out_axes=1)
    positions = run_mcmc(rng_keys, n_samples, logpdf, initial_position).block_until_ready()
    assert positions.shape == (n_dim, n_chains)


n_dim=4
n_samples = 1_000
n_chains = 100
rng_key = jax.random.PRNGKey(42)

# scaffolding: `%timeit -o sample_jax(rng_key, mixture_logpdf, n_dim, n_samples, n_chains)` repeats
# one configuration; five explicit repeats stand in for it
for _ in range(5):  # scaffolding
    sample_jax(rng_key, mixture_logpdf, n_dim, n_samples, n_chains)

_report({"jit(rw_metropolis_sampler)"}, 5)  # scaffolding
