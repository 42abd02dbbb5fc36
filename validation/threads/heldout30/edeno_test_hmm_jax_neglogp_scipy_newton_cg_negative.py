# source: https://github.com/edeno/test_hmm/blob/7b1912f6080f71682515e128363ccbf32a3cce52/notebooks/jax.ipynb
# expect: none
# runtime: COMPILES 5 CALLS 140
# why: the jitted neglogp (numpy data bound as default arguments) is handed with its grad and hessian to scipy's Newton-CG, which calls them 140 times with float64 arrays of the same shape; each transformation compiles once (5 compiles in all), none recompiles per iteration.
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



# cell 1
import numpy as np
from scipy.optimize import minimize

import jax
import jax.numpy as jnp
import jax.scipy as jsp

np.random.seed(0)  # scaffolding: the notebook draws unseeded spikes; a fixed seed makes scipy's iteration count reproducible
rate = np.ones(10000) * 20.0
sampling_frequency = 1000
spikes = np.random.poisson(rate / sampling_frequency)

design_matrix = np.ones((spikes.shape[0], 1))


@jax.jit
def neglogp(coefficients, spikes=spikes, design_matrix=design_matrix):
    conditional_intensity = jnp.exp(design_matrix @ coefficients)
    log_likelihood = jax.scipy.stats.poisson.logpmf(
        spikes, conditional_intensity + np.spacing(1)
    )
    return -log_likelihood.sum()


dlike = jax.grad(neglogp)
dlike2 = jax.hessian(neglogp)
res = minimize(neglogp, x0=np.ones(1), method="Newton-CG", jac=dlike, hess=dlike2)
# res2 = minimize(neglogp, x0=np.ones(1),  method="BFGS", jac=dlike)


np.exp(res.x) * sampling_frequency

print(res.nit, res.nfev, res.njev, res.nhev, file=__import__("sys").stderr)  # scaffolding
_report({"jit(neglogp)"}, res.nfev + res.njev + res.nhev)  # scaffolding: calls = scipy's evaluations of the loss, its grad and its hessian
