# source: https://github.com/pyro-ppl/numpyro/issues/1503
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the maintainer's suggestion jits the Predictive object once and calls it with a fresh key inside the sampling loop; every call has the same key shape, so it compiles once for five calls.

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
import jax  # scaffolding
import numpyro
import numpyro.distributions as dist
from jax import random  # scaffolding
from numpyro.infer import Predictive  # scaffolding


def model():
    return numpyro.sample("x", dist.Normal(0, 1))

predictive = Predictive(model, num_samples=1)
jitted_predictive = jax.jit(predictive)  # scaffolding: the thread text stops at 'jitted_predictive ='

samples = []  # scaffolding
for i in range(5):  # scaffolding: the reporter's loop over single-sample draws
    samples.append(jitted_predictive(random.PRNGKey(i))["x"])  # scaffolding
print([float(s[0]) for s in samples])  # scaffolding
print(sorted(set(_COMPILED)))  # scaffolding
_report({"jit(<unnamed function>)"}, 5)  # scaffolding
