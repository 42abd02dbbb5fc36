# source: https://github.com/pyro-ppl/numpyro/issues/2
# expect: shape-churn at line 47
# runtime: COMPILES 3 CALLS 4
# why: the thread's fix caches the jitted step (one function object), but on current JAX the guide's Python-float initial params make the first optimizer state weak-typed, so the cached step still recompiles as the state's dtypes settle (3 compiles for 4 steps).

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
import jax.numpy as np
from jax import grad, random, jit
from jax.example_libraries import optimizers  # scaffolding: was jax.experimental.optimizers
from jax.random import PRNGKey

import numpyro.distributions as dist
from numpyro import sample, param  # scaffolding: was numpyro.handlers
from numpyro.handlers import replay, trace, substitute, seed


def model(data):
    loc = sample("loc", dist.Normal(0., 1.))
    sample("obs", dist.Normal(loc, 1.), obs=data)


# Define a guide (i.e. variational distribution) with a Normal
# distribution over the latent random variable `loc`.
def guide(data):
    guide_loc = param("guide_loc", 0.)
    guide_scale = np.exp(param("guide_scale_log", 0.))
    sample("loc", dist.Normal(guide_loc, guide_scale))


# This is a unified interface for stochastic variational inference in Pyro.
# The actual construction of the loss is taken care of by `loss`.
# See http://docs.pyro.ai/en/0.3.0-release/inference_algos.html
class SVI(object):
    def __init__(self, model, guide, opt_init, opt_update, loss, rng=PRNGKey(0)):
        self.model = model
        self.guide = guide
        self.opt_init = opt_init
        self.opt_update = opt_update
        self.loss = loss
        self.rng = rng
        self._jitted_fn = None

    def init_state(self, *args, **kwargs):
        model, guide = self._seed(self.rng)
        guide_trace = trace(guide).get_trace(*args, **kwargs)
        model_trace = trace(model).get_trace(*args, **kwargs)
        params = {}
        for site in list(guide_trace.values()) + list(model_trace.values()):
            if site['type'] == 'param':
                params[site['name']] = site['value']
        return self.opt_init(params)

    def _seed(self, rng):
        model = seed(self.model, rng_seed=rng)  # scaffolding: keyword rng_seed
        _, subkey = random.split(rng)
        guide = seed(self.guide, rng_seed=subkey)  # scaffolding: keyword rng_seed
        return model, guide

    def step(self, i, *args, **kwargs):
        def jit_fn(i, opt_state, rng, args, kwargs):
            model, guide = self._seed(rng)
            params = optimizers.get_params(opt_state)
            loss = self.loss(params, model, guide, args, kwargs)
            grads = grad(self.loss)(params, model, guide, args, kwargs)
            opt_state = self.opt_update(i, grads, opt_state)
            return loss, opt_state
        opt_state = kwargs.pop('opt_state')
        if opt_state is None:
            opt_state = self.init_state(*args, **kwargs)
        if not self._jitted_fn:
            self._jitted_fn = jit(jit_fn)
        _, self.rng = random.split(self.rng)
        return self._jitted_fn(i, opt_state, self.rng, args, kwargs)


# This is a basic implementation of the Evidence Lower Bound, which is the
# fundamental objective in Variational Inference.
def elbo(param_map, model, guide, args, kwargs):
    model = substitute(model, data=param_map)
    guide = substitute(guide, data=param_map)
    guide_trace = trace(guide).get_trace(*args, **kwargs)
    model_trace = trace(replay(model, trace=guide_trace)).get_trace(*args, **kwargs)
    elbo = 0.
    for site in model_trace.values():
        if site["type"] == "sample":
            elbo = elbo + np.sum(site["fn"].log_prob(site["value"]))
    for site in guide_trace.values():
        if site["type"] == "sample":
            elbo = elbo - np.sum(site["fn"].log_prob(site["value"]))
    return -elbo


# Generate some data.
data = random.normal(PRNGKey(0), shape=(100,)) + 3.0

opt_init, opt_update, _get_params = optimizers.adam(0.01)  # scaffolding: now returns a third get_params
optimizers.get_params = _get_params  # scaffolding: the 2019 module-level get_params
svi = SVI(model, guide, opt_init, opt_update, elbo)

# Basic training loop
opt_state = None
losses = []  # scaffolding
for i in range(4):  # scaffolding: args.num_steps
    loss, opt_state = svi.step(i, data, opt_state=opt_state)
    losses.append(float(loss))  # scaffolding
print(losses)  # scaffolding
_report({"jit(jit_fn)"}, 4)  # scaffolding
