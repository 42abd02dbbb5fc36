# source: https://github.com/pyro-ppl/numpyro/issues/1570
# expect: trace-time-error at line 41
# runtime: ERROR TracerBoolConversionError
# why: under NUTS the model is traced, so the sampled slope a is a tracer and the Python if a<5 in forward raises TracerBoolConversionError.

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


""" LIB IMPORT """
import numpy as np 
from jax import random
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS
import jax.numpy as jnp


""" FORWARD FUNCTION """
def forward(x, a, b) :
    y = b + a * x 
    
    if a<5: # checking value 
        print('hello')
    else:
        print('goodbye')
        
    return y

""" VARIABLE INITIALIZATION """
x_values = np.arange(0, 1e2, dtype=float)
coefficient_directeur=10
ordonnee_origine=150

""" GENERATING NOISE """
alpha = 200 # coefficient de bruit
noise = jnp.array(np.random.randn(len(x_values))) * alpha  # scaffolding from here on
y_values = forward(x_values, coefficient_directeur, ordonnee_origine) + noise


def model(x, y=None):
    a = numpyro.sample("a", dist.Uniform(0.0, 20.0))
    b = numpyro.sample("b", dist.Uniform(0.0, 300.0))
    numpyro.sample("obs", dist.Normal(forward(x, a, b), alpha), obs=y)


mcmc = MCMC(NUTS(model), num_warmup=10, num_samples=10, progress_bar=False)
try:
    mcmc.run(random.PRNGKey(0), x_values, y=y_values)
    _report(set(), 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
