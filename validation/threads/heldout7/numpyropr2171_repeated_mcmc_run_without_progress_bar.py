# source: https://github.com/pyro-ppl/numpyro/pull/2171
# expect: jit-in-loop-or-body at line 47
# runtime: COMPILES 3 CALLS 3
# why: With progress_bar=False, numpyro's fori_collect rebuilds its jitted loop_fn closure on every call, so every repeated MCMC.run() on the same model and data shape recompiles the sampling loop.

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
import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS


# scaffolding: the PR benchmarks normal_normal / eight_schools / logistic regression; a normal-normal
# model stands in for them
def normal_normal(y=None):
    mu = numpyro.sample("mu", dist.Normal(0, 1))
    numpyro.sample("y", dist.Normal(mu, 1), obs=y)


y = jnp.ones(10)
mcmc = MCMC(NUTS(normal_normal), num_warmup=10, num_samples=10, progress_bar=False)
calls = 0
for i in range(3):  # repeated MCMC.run() on the same model and data shape
    mcmc.run(jax.random.PRNGKey(i), y=y)
    calls += 1
_report({"jit(_fori_collect_loop)"}, calls)
