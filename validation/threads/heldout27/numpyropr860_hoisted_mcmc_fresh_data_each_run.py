# source: https://github.com/pyro-ppl/numpyro/pull/860
# expect: changing-static at line 46
# runtime: COMPILES 3 CALLS 3
# why: even with NUTS/MCMC hoisted out of the loop (the PR's script), jit_model_args is off, so the model arguments are baked into the sampler; each fresh np.zeros((1,)) is a new cache key and _body_fn compiles on every run.
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


import gc
from collections import Counter

import numpy as np

from numpyro import sample
import numpyro.distributions as dist
from jax import random, vmap
from numpyro.infer import MCMC, NUTS


def model(y_obs):
    mu = sample('mu', dist.Normal(0., 1.))
    sigma = sample("sigma", dist.HalfCauchy(3.))
    y = sample("y", dist.Normal(mu, sigma), obs=y_obs)

kernel = NUTS(model)
mcmc = MCMC(kernel, num_warmup=1, num_samples=2)  # scaffolding: MCMC(kernel, 1, 2) in the PR; numpyro now takes these as keywords
for i in range(3):  # scaffolding: range(10) in the PR, cut to 3
    mcmc.run(random.PRNGKey(i), np.zeros((1,)))
    print("\nGC OBJECTS:")
    cnt = Counter()
    # force collection; it is expected that count of different types
    # should not increase per iteration
    gc.collect()
    for x in gc.get_objects():
        if isinstance(x, list):
            if len(x) > 1:
                cnt[type(x[0])] += 1
    print(cnt.most_common(10))
_report({"jit(_body_fn)"}, 3)  # scaffolding
