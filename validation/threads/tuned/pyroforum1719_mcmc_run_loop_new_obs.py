# source: https://forum.pyro.ai/t/behavior-of-mask-handler-with-invalid-observation-possible-bug/1719
# expect: changing-static at line 50
# runtime: COMPILES 3 CALLS 3
# why: MCMC is built without jit_model_args=True, so each run closes the new obs array into the sampler as a constant; every run with a new (same-shape) observation re-traces and compiles the NUTS sample loop again (jit(_body_fn): 3 compiles for 3 runs).

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
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS
import jax
import jax.numpy as np
def model(obs=None):
    conc = numpyro.sample('conc', dist.Gamma(1, 1))
    a = conc * np.ones(3,)
    mask = np.arange(3) > 0 # first observation should be ignored
    with numpyro.handlers.mask(mask=mask):  # scaffolding: keyword was mask_array (renamed in numpyro)
        y = numpyro.sample("y", dist.Beta(a, a), obs=obs)
    return y
kernel = NUTS(model)
mcmc = MCMC(kernel, num_warmup=10, num_samples=10, num_chains=1)
# Expected behavior:
# -- obs1, obs2, obs3 are equivalent
obs1 = np.array([0.1, 0.5, 0.5])
obs2 = np.array([0.5, 0.5, 0.5])
obs3 = np.array([0.0, 0.5, 0.5]) # invalid
init = {'conc': 1.} # fails to find initial parameters otherwise
for obs in [obs1, obs2, obs3]:
    mcmc.run(jax.random.PRNGKey(2), obs=obs, init_params=init)
    mcmc.print_summary()
    print(mcmc.get_samples()['conc'])
_report({"jit(_body_fn)"}, 3)  # scaffolding
