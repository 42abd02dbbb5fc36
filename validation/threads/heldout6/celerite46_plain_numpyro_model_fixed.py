# source: https://github.com/exoplanet-dev/celerite2/issues/46
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: without the jax.jit decorator numpyro traces and jits the model itself inside NUTS, the sample statements see the handlers on every trace, and the posterior mean of `mean` lands near the data (the sampling loop compiles once).

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
import jax
import numpy as np

np.random.seed(42)

t = np.sort(
    np.append(
        np.random.uniform(0, 3.8, 57),
        np.random.uniform(5.5, 10, 68),
    )
)  # The input coordinates must be sorted
yerr = np.random.uniform(0.08, 0.22, len(t))
y = (
    0.2 * (t - 5)
    + np.sin(3 * t + 0.1 * (t - 5) ** 2)
    + yerr * np.random.randn(len(t))
)

prior_sigma = 2.0

jax.config.update("jax_enable_x64", True)

from jax import random
import jax.numpy as jnp

import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS


def numpyro_model(t, yerr, y=None):
    mean = numpyro.sample("mean", dist.Normal(0.0, prior_sigma))
    log_jitter = numpyro.sample("log_jitter", dist.Normal(0.0, prior_sigma))

    # scaffolding: stands in for the celerite2 GP likelihood
    numpyro.sample("obs", dist.Normal(mean, jnp.sqrt(yerr**2 + jnp.exp(2 * log_jitter))), obs=y)


nuts_kernel = NUTS(numpyro_model, dense_mass=True)
mcmc = MCMC(
    nuts_kernel,
    num_warmup=10,
    num_samples=10,
    num_chains=1,
    progress_bar=False,
)
rng_key = random.PRNGKey(34923)

mcmc.run(rng_key, t, yerr, y=y)
print("data mean %.2f, posterior mean of mean %.2f" % (y.mean(), mcmc.get_samples()["mean"].mean()))
_report({"jit(_fori_collect_loop)"}, 1)
