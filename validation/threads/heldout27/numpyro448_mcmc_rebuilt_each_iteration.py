# source: https://github.com/pyro-ppl/numpyro/issues/448
# expect: jit-in-loop-or-body at line 45
# runtime: COMPILES 3 CALLS 3
# why: NUTS and MCMC are rebuilt on every loop iteration and run on a fresh data array without jit_model_args, so each mcmc.run traces and compiles the sampler's jitted _body_fn again (3 compiles for 3 runs).
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

for i in range(3):  # scaffolding: range(30) in the issue, cut to 3
    kernel = NUTS(model)
    mcmc = MCMC(kernel, num_warmup=1, num_samples=2)  # scaffolding: MCMC(kernel, 1, 2) in the issue; numpyro now takes these as keywords
    mcmc.run(random.PRNGKey(0), np.zeros((1,)))
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
