# source: https://github.com/pyro-ppl/numpyro/issues/1347
# expect: changing-static at line 46
# runtime: COMPILES 4 CALLS 4
# why: fehiepsi's fix (jit_model_args=True) no longer stops the recompiles on numpyro 0.22 with progress_bar=False: fori_collect jits _fori_collect_loop with a freshly defined _body_fn as a static argument on every run, so each run compiles again.
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
# fehiepsi's reply: "Could you try `mcmc = MCMC(..., jit_model_args=True)`?"
mcmc = MCMC(kernel, num_warmup=1, num_samples=2, progress_bar=False, jit_model_args=True)
mcmc._compile(random.PRNGKey(0), np.zeros((1,)))

_calls = 0  # scaffolding
while _calls < 3:  # scaffolding: `while True:` in the issue, bounded to 3 runs
    mcmc.run(random.PRNGKey(0), np.random.randn())
    _calls += 1  # scaffolding
_report({"jit(_fori_collect_loop)"}, _calls + 1)  # scaffolding: _compile plus 3 runs
