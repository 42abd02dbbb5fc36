# source: https://github.com/pyro-ppl/numpyro/issues/691
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: fehiepsi's suggestion: bind seasonality with functools.partial (model=partial(sgt, seasonality=6)), so it stays a Python int while y is still a jitted model argument; the run compiles its sampling loop once.

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
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS


def sgt(y, seasonality, future=0):
    level_sm = numpyro.sample("level_sm", dist.Beta(1, 2))
    init_s = numpyro.sample("init_s", dist.Cauchy(0, y[:seasonality] * 0.3).to_event(1))
    sigma = numpyro.sample("sigma", dist.HalfCauchy(5.0))
    season = jnp.concatenate([init_s] * (y.shape[0] // init_s.shape[0]))
    numpyro.sample("y", dist.Normal(level_sm * y.mean() + season, sigma), obs=y)


y = 1.0 + jnp.sin(jnp.arange(24.0) * 2 * jnp.pi / 6)
kernel = NUTS(partial(sgt, seasonality=6))
mcmc = MCMC(kernel, num_warmup=5, num_samples=5, progress_bar=False, jit_model_args=True)
mcmc.run(jax.random.PRNGKey(0), y)
_report({"jit(_fori_collect_loop)"}, 1)
