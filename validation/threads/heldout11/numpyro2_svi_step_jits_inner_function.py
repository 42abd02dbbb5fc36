# source: https://github.com/pyro-ppl/numpyro/issues/2
# expect: jit-in-loop-or-body at line 83; shape-churn at line 47
# runtime: COMPILES 3 CALLS 3
# why: SVI.step defines and jit-decorates a fresh inner function on every call, so each training step traces and compiles the ELBO gradient again (3 compiles for 3 steps); the guide's Python-float initial params are weak-typed as well (measured in the sibling file).

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
    def __init__(self, model, guide, opt_init, opt_update, loss, init_rng=PRNGKey(0)):
        self.init_rng = init_rng  # scaffolding: seeding moved to the model/guide properties
        self._model = model  # scaffolding
        self._guide = guide  # scaffolding
        self.opt_init = opt_init
        self.opt_update = opt_update
        self.loss = loss

    @property  # scaffolding: seed(model, init_rng) built per use
    def model(self):  # scaffolding
        return seed(self._model, rng_seed=self.init_rng)  # scaffolding

    @property  # scaffolding
    def guide(self):  # scaffolding
        _, subkey = random.split(self.init_rng)  # scaffolding
        return seed(self._guide, rng_seed=subkey)  # scaffolding

    def init_state(self, *args, **kwargs):
        guide_trace = trace(self.guide).get_trace(*args, **kwargs)
        model_trace = trace(self.model).get_trace(*args, **kwargs)
        params = {}
        for site in list(guide_trace.values()) + list(model_trace.values()):
            if site['type'] == 'param':
                params[site['name']] = site['value']
        return self.opt_init(params)

    def step(self, i, *args, **kwargs):
        @jit
        def jitted(i, opt_state, *args, **kwargs):
            params = optimizers.get_params(opt_state)
            loss = self.loss(params, self.model, self.guide, args, kwargs)
            grads = grad(self.loss)(params, self.model, self.guide, args, kwargs)
            opt_state = self.opt_update(i, grads, opt_state)
            return loss, opt_state
        opt_state = kwargs.pop('opt_state')
        if opt_state is None:
            opt_state = self.init_state(*args, **kwargs)
        return jitted(i, opt_state, *args, **kwargs)


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
for i in range(3):  # scaffolding: args.num_steps
    loss, opt_state = svi.step(i, data, opt_state=opt_state)
    losses.append(float(loss))  # scaffolding
print(losses)  # scaffolding
_report({"jit(jitted)"}, 3)  # scaffolding
