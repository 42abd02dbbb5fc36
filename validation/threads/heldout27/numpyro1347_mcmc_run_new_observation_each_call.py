# source: https://github.com/pyro-ppl/numpyro/issues/1347
# expect: changing-static at line 45
# runtime: COMPILES 4 CALLS 4
# why: each mcmc.run gets a new observation (np.random.randn()) while jit_model_args is off, so the data is a compile-time constant of the sample loop and jit(_fori_collect_loop) compiles on _compile and again on every run.
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


import numpy as np
from numpyro import sample
import numpyro.distributions as dist
from jax import random
from numpyro.infer import MCMC, NUTS


def model(y_obs):
    mu = sample('mu', dist.Normal(0., 1.))
    sigma = sample('sigma', dist.HalfCauchy(3.))
    y = sample('y', dist.Normal(mu, sigma), obs=y_obs)

kernel = NUTS(model)
mcmc = MCMC(kernel, num_warmup=1, num_samples=2, progress_bar=False)
mcmc._compile(random.PRNGKey(0), np.zeros((1,)))

_calls = 0  # scaffolding
while _calls < 3:  # scaffolding: `while True:` in the issue, bounded to 3 runs
    mcmc.run(random.PRNGKey(0), np.random.randn())
    _calls += 1  # scaffolding
_report({"jit(_fori_collect_loop)"}, _calls + 1)  # scaffolding: _compile plus 3 runs
