# source: https://github.com/pyro-ppl/numpyro/issues/1210
# expect: unhashable-static at line 40
# runtime: ERROR ValueError
# why: gnool_jit turns array arguments into static ones by hashing them with int(jnp.sum(x)); inside the numpyro model run by NUTS the array is a traced sample site, so hashing the static argument concretizes a tracer and raises.

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
from jax import jit
from functools import partial

import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS


def some_hash_function(x):
    return int(jnp.sum(x))

class HashableArrayWrapper:
    def __init__(self, val):
        self.val = val
    def __hash__(self):
        return some_hash_function(self.val)
    def __eq__(self, other):
        return (isinstance(other, HashableArrayWrapper) and
                jnp.all(jnp.equal(self.val, other.val)))

def gnool_jit(fun, static_array_argnums=()):
    @partial(jit, static_argnums=static_array_argnums)
    def callee(*args):
        args = list(args)
        for i in static_array_argnums:
            if isinstance(args[i], tuple):
                args[i] = args[i].__class__(*[a.val for a in args[i]])
            else:
                args[i] = args[i].val
        return fun(*args)

    def caller(*args):
        args = list(args)
        for i in static_array_argnums:
            if isinstance(args[i], tuple):
                all_as = [HashableArrayWrapper(a) for a in args[i]]
                args[i] = args[i].__class__(all_as)  # scaffolding from here: the thread cuts caller()
            else:
                args[i] = HashableArrayWrapper(args[i])
        return callee(*args)

    return caller


def forward(x, coeffs):  # scaffolding: the reporter's JAX model function is not shown
    return coeffs[0] + coeffs[1] * x


fwd = gnool_jit(forward, static_array_argnums=(1,))


def model(x_grid, obs=None):  # scaffolding
    coeffs = numpyro.sample("coeffs", dist.Normal(jnp.zeros(2), 1.0).to_event(1))
    y = fwd(x_grid, coeffs)
    numpyro.sample("obs", dist.Normal(y, 0.1), obs=obs)


x_grid = jnp.linspace(0.0, 1.0, 20)
mcmc = MCMC(NUTS(model), num_warmup=5, num_samples=5, progress_bar=False)
try:
    mcmc.run(jax.random.PRNGKey(0), x_grid, obs=1.0 + 2.0 * x_grid)
    _report({"jit(callee)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
