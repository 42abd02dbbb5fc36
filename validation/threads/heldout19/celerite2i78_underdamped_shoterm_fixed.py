# source: https://github.com/exoplanet-dev/celerite2/issues/78
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the fix suggested in the thread, using UnderdampedSHOTerm directly (with Q kept in the underdamped range), has no Python branch on a traced value, so NUTS runs.
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
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS


class _SHOBase:  # scaffolding: celerite2.jax.terms parameter handling (sigma, rho, tau -> S0, w0, Q)
    def __init__(self, *, sigma, rho, tau, eps=1e-5):
        self.w0 = 2 * jnp.pi / rho
        self.Q = 0.5 * self.w0 * tau
        self.S0 = sigma ** 2 / (self.w0 * self.Q)
        self.eps = eps


class OverdampedSHOTerm(_SHOBase):  # scaffolding: celerite2 0.2.1, coefficients only
    def get_coefficients(self):
        Q = self.Q
        f = jnp.sqrt(jnp.maximum(1.0 - 4.0 * Q ** 2, self.eps))
        return (0.5 * self.S0 * self.w0 * Q * jnp.array([1.0 + 1.0 / f, 1.0 - 1.0 / f]),
                0.5 * self.w0 / Q * jnp.array([1.0 - f, 1.0 + f]))


class UnderdampedSHOTerm(_SHOBase):  # scaffolding: celerite2 0.2.1, coefficients only
    def get_coefficients(self):
        Q = self.Q
        f = jnp.sqrt(jnp.maximum(4.0 * Q ** 2 - 1.0, self.eps))
        a = self.S0 * self.w0 * Q
        c = 0.5 * self.w0 / Q
        return (jnp.array([a, a / f]), jnp.array([c, c * f]))


def SHOTerm(*args, **kwargs):
    over = OverdampedSHOTerm(*args, **kwargs)
    under = UnderdampedSHOTerm(*args, **kwargs)
    if over.Q < 0.5:
        return over
    return under


class jax_terms:  # scaffolding: namespace standing in for celerite2.jax.terms
    SHOTerm = staticmethod(SHOTerm)
    UnderdampedSHOTerm = UnderdampedSHOTerm


def gp_log_likelihood(term, t, diag, y):  # scaffolding: stands in for celerite2.jax.GaussianProcess
    amp, rate = term.get_coefficients()
    dt = jnp.abs(t[:, None] - t[None, :])
    K = jnp.sum(amp[:, None, None] * jnp.exp(-rate[:, None, None] * dt), axis=0) + jnp.diag(diag)
    return jax.scipy.stats.multivariate_normal.logpdf(y, jnp.zeros_like(y), K)


np.random.seed(42)
t = np.sort(np.random.uniform(0, 10, 40))  # scaffolding: the docs' data, fewer points
yerr = np.random.uniform(0.08, 0.22, len(t))
y = 0.2 * (t - 5) + np.sin(3 * t + 0.1 * (t - 5) ** 2) + yerr * np.random.randn(len(t))
prior_sigma = 2.0


def numpyro_model(t, yerr, y=None):
    mean = numpyro.sample("mean", dist.Normal(0.0, prior_sigma))
    log_jitter = numpyro.sample("log_jitter", dist.Normal(0.0, prior_sigma))

    log_sigma1 = numpyro.sample("log_sigma1", dist.Normal(0.0, prior_sigma))
    log_rho1 = numpyro.sample("log_rho1", dist.Normal(0.0, prior_sigma))
    log_tau = numpyro.sample("log_tau", dist.Normal(0.0, prior_sigma))
    term1 = jax_terms.UnderdampedSHOTerm(
        sigma=jnp.exp(log_sigma1), rho=jnp.exp(log_rho1), tau=jnp.exp(log_tau)
    )

    numpyro.factor("log_likelihood", gp_log_likelihood(term1, t, yerr ** 2 + jnp.exp(2 * log_jitter), y - mean))  # scaffolding: GaussianProcess(term1).compute/log_likelihood


nuts_kernel = NUTS(numpyro_model, dense_mass=True)
mcmc = MCMC(
    nuts_kernel,
    num_warmup=5,  # scaffolding: 1000 in the thread
    num_samples=5,  # scaffolding: 1000 in the thread
    num_chains=1,
    progress_bar=False,
)
rng_key = jax.random.PRNGKey(34923)
try:  # scaffolding
    mcmc.run(rng_key, t, yerr, y=y)
    _report({"jit(_fori_collect_loop)"}, 1)  # scaffolding: numpyro's sampling loop
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
