# source: https://github.com/pyro-ppl/numpyro/issues/1699
# expect: jit-in-loop-or-body at line 72; shape-churn at line 56
# runtime: COMPILES 4 CALLS 4
# why: every iteration rebuilds NUTS/MCMC, feeds data of a random length, and calls jax.clear_caches(), so the sampler's jitted _body_fn is traced and compiled again on each of the 4 runs.
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

import numpyro, jax
from numpyro import sample
import numpyro.distributions as dist
from jax import random, vmap
from numpyro.infer import MCMC, NUTS
import os
import psutil

process = psutil.Process(os.getpid())

print("numpyro version: ", numpyro.__version__)
print("jax version: ", jax.__version__)


def model(y_obs):
    mu = sample('mu', dist.Normal(0., 1.))
    sigma = sample("sigma", dist.HalfCauchy(3.))
    y = sample("y", dist.Normal(mu, sigma), obs=y_obs)


np.random.seed(1)  # scaffolding: fixes the random lengths so the measurement repeats
for i in range(4):  # scaffolding: range(10) in the comment, cut to 4
    kernel = NUTS(model)
    mcmc = MCMC(kernel, num_samples=1, num_warmup=2, jit_model_args=True)
    mcmc.run(random.PRNGKey(0), np.zeros((np.random.randint(0, 10),)))
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
    
    memory_in_mb = process.memory_info().rss / 1024 / 1024
    
    print(i, memory_in_mb)
    
    jax.clear_caches()
    for x in jax.live_arrays():
        x.delete()
_report({"jit(_body_fn)"}, 4)  # scaffolding
