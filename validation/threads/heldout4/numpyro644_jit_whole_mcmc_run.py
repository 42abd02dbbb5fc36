# source: https://github.com/pyro-ppl/numpyro/issues/644
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: fehiepsi's pattern, jax.jit around a function that builds MCMC(NUTS(model)) and runs it, is built once and reused: nuts_fit compiles once for two calls with new keys and data.

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
import jax.numpy as jnp  # scaffolding
import numpyro  # scaffolding
import numpyro.distributions as dist  # scaffolding
from numpyro.infer import MCMC, NUTS


def model(data):  # scaffolding: any model; the thread's is not shown
    mu = numpyro.sample("mu", dist.Normal(0.0, 1.0))  # scaffolding
    numpyro.sample("obs", dist.Normal(mu, 1.0), obs=data)  # scaffolding


def nuts_fit(rng_key, data):
    mcmc = MCMC(NUTS(model), num_warmup=50, num_samples=50, progress_bar=False)  # scaffolding: `...` in the thread
    mcmc.run(rng_key, data)  # scaffolding: the thread writes mcmc.run(data)
    return mcmc.get_samples()

jit_nuts = jax.jit(nuts_fit)

data = jnp.linspace(-1.0, 1.0, 20)  # scaffolding
jit_nuts(jax.random.PRNGKey(0), data)  # scaffolding: "then reuse jit_nuts"
jit_nuts(jax.random.PRNGKey(1), data + 0.5)  # scaffolding
_report({"jit(nuts_fit)"}, 2)  # scaffolding
