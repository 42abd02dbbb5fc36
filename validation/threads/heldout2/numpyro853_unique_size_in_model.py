# source: https://github.com/pyro-ppl/numpyro/issues/853
# expect: trace-time-error at line 45
# runtime: ERROR ConcretizationTypeError
# why: jnp.unique(volume).size sizes a sample site, and NUTS traces the model inside its jitted while-loop body; under that trace jnp.unique of the data array is staged out and has no size=, so it raises ConcretizationTypeError (in 2020: 'Array boolean indices must be concrete').

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


import numpy as np  # scaffolding
from jax import random
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro.infer import NUTS, MCMC

# scaffolding: the thread reads reedfrogs.csv (48 tanks) with pandas from GitHub
d = {'density': np.repeat([10, 25, 35], 16), 'volume': np.tile(np.repeat([0, 1], 8), 3)}
d['tank'] = np.arange(48)
d['surv'] = np.random.default_rng(0).binomial(d['density'], 0.6)

def model(tank, density, volume, survived=None):
    # priors
    a_bar = numpyro.sample('a_bar', dist.Normal(0, 1.5))
    sigma = numpyro.sample('sigma', dist.Exponential(1))
    a = numpyro.sample('a', dist.Normal(a_bar,sigma), sample_shape=tank.shape)
    s = numpyro.sample('s', dist.Normal(0,0.5), sample_shape=(jnp.unique(volume).size,))
    # likelihood
    logits = a[tank] + s[volume]
    numpyro.sample('surv_hat', dist.Binomial(density, logits=logits), obs=survived)

kernel = NUTS(model)
mcmc = MCMC(kernel, num_warmup=50, num_samples=50, progress_bar=False)  # scaffolding: 500/500 in the thread
try:  # scaffolding
    mcmc.run(random.PRNGKey(0), d['tank'], d['density'], d['volume'], survived=d['surv'])  # scaffolding: the call is cut off in the thread
    _report({"jit(_body_fn)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
