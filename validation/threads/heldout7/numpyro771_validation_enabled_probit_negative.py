# source: https://github.com/pyro-ppl/numpyro/issues/771
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The reporter's probit model run with NUTS inside numpyro.validation_enabled(); the 2020 ConcretizationTypeError from validating samples under omnistaging no longer occurs on numpyro 0.22 / jax 0.10.2, and the jitted sampling loop compiles once.

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
import numpy as np
import numpyro
import numpyro.distributions as dist
from jax import random
from jax.scipy.stats.norm import cdf
from numpyro.infer import MCMC, NUTS


def model(nwifeinc,
                  educ,
                  exper,
                  exper2,
                  age,
                  kidslt6,
                  kidsge6,
                  y=None):

    alpha = numpyro.sample("alpha", dist.Normal(0, 1))
    b1 = numpyro.sample("b1", dist.Normal(0, 1))
    b2 = numpyro.sample("b2", dist.Normal(0, 1))
    b3 = numpyro.sample("b3", dist.Normal(0, 1))
    b4 = numpyro.sample("b4", dist.Normal(0, 1))
    b5 = numpyro.sample("b5", dist.Normal(0, 1))
    b6 = numpyro.sample("b6", dist.Normal(0, 1))
    b7 = numpyro.sample("b7", dist.Normal(0, 1))
    xb =  alpha + b1*nwifeinc  + b2*educ +b3*exper + b4*exper2 + b5*age  + b6*kidslt6 + b7*kidsge6
    phi =  cdf(xb)
    numpyro.sample("y", dist.BernoulliProbs(phi), obs=y)


# scaffolding: synthetic data in place of the reporter's Mroz data (753 rows in the thread, 100 here)
rng = np.random.default_rng(0)
n = 100
data = {name: rng.normal(size=n).astype(np.float32) * 0.1
        for name in ["nwifeinc", "educ", "exper", "exper2", "age", "kidslt6", "kidsge6"]}
y = (rng.uniform(size=n) < 0.5).astype(np.float32)

probit = MCMC(NUTS(model), num_warmup=20, num_samples=20, num_chains=1, progress_bar=False)
with numpyro.validation_enabled():
    probit.run(random.PRNGKey(0), **data, y=y)
print("posterior mean of alpha:", float(probit.get_samples()["alpha"].mean()))
_report({"jit(_fori_collect_loop)"}, 1)
