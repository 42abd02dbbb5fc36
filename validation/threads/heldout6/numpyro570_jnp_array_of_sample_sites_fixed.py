# source: https://github.com/pyro-ppl/numpyro/issues/570
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: built with jnp.array, the (1, 4) parameter array stays a traced JAX array and the model runs under NUTS; the jitted sampling loop compiles once for the run.

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
import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS


def Tpm(ran, array):  # scaffolding: the reporter's function is in another module
    return array[0, 1] * jnp.exp(-(((ran - array[0, 0]) / array[0, 2]) ** 2)) + array[0, 3]


def model(MRT=None):
    eff = numpyro.sample('eff', dist.Normal(0.5, 0.1))
    pos = numpyro.sample('pos', dist.Normal(10,0.1))
    sig= numpyro.sample('sig', dist.Normal(1, 0.2))
    mean_time = numpyro.sample('mt', dist.Normal(10., 4))


    sigma = numpyro.sample('sigma', dist.Exponential(1.))

    array = jnp.array([[pos,eff,sigma,mean_time]])
    ran = np.arange(0,100)
    mrt = Tpm(ran,array)
    numpyro.sample('obs', dist.Normal(mrt, sigma), obs=MRT)


mcmc = MCMC(NUTS(model), num_warmup=5, num_samples=5, progress_bar=False)  # scaffolding
mcmc.run(jax.random.PRNGKey(0), MRT=10.0 + jnp.zeros(100))
_report({"jit(_fori_collect_loop)"}, 1)
