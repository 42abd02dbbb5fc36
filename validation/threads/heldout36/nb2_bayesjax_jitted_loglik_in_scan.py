# source: https://github.com/sherna90/bayesian_jax_tutorial/blob/f4da5a9e6f70d89c9d66b1a10f23646d1c37e3b3/tutorial_1.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The tutorial jits log_likelihood once and then calls the jitted function inside the lax.scan body of a Metropolis-Hastings sampler (also under vmap); the inner jit is inlined into the scan's trace, so log_likelihood compiles only once (for the first vmapped call) and the scans add no separate compiles of it.

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
import types  # scaffolding
import sys  # scaffolding

import jax  # scaffolding: the notebook imports jax in an earlier (pymc) cell's environment
import jax.numpy as jnp  # scaffolding


class _Normal:  # scaffolding: minimal stand-in for distrax.Normal (distrax is not installed here)
    def __init__(self, loc, scale):
        self.loc, self.scale = loc, scale

    def log_prob(self, x):
        return jax.scipy.stats.norm.logpdf(x, self.loc, self.scale)

    def sample(self, seed):
        return self.loc + self.scale * jax.random.normal(seed)


class _Uniform:  # scaffolding: minimal stand-in for distrax.Uniform
    def __init__(self, low, high):
        self.low, self.high = low, high

    def sample(self, seed):
        return jax.random.uniform(seed, minval=self.low, maxval=self.high)


sys.modules["distrax"] = types.SimpleNamespace(Normal=_Normal, Uniform=_Uniform)  # scaffolding

# cell 0 (pymc import cut: scaffolding)
import numpy as np

observed, test_point = 5.0, 2.5 

# cell 2
import distrax
from jax import grad

def log_likelihood(test_point):
    log_prior=distrax.Normal(0.,5.).log_prob(test_point)
    log_like=distrax.Normal(test_point,1.).log_prob(observed)
    return log_prior+log_like

dlog_p = grad(log_likelihood)

print('log-posterior : {0:.2f}, gradiente : {1:.2f}'.format(log_likelihood(test_point),
                                                            dlog_p(test_point)))

# cell 3
from jax import lax

def proposal(prev_val, key):
    new = prev_val + distrax.Normal(0.,1.).sample(seed=key)
    return new, prev_val

def sample(key, num_steps):
    multiple_keys = jax.random.split(key, num_steps)
    final, draws = lax.scan(proposal, test_point, multiple_keys)
    return final, draws

initial_key=jax.random.PRNGKey(0)
final, draws = sample(initial_key,1_000)

# cell 5

from jax import vmap

log_posterior=vmap(log_likelihood)(draws)  # %time magic removed: scaffolding

# cell 6
from jax import jit

jitted_log_likelihood=jit(log_likelihood)

jitted_log_posterior=vmap(jitted_log_likelihood)(draws)  # %time magic removed: scaffolding

# cell 7
jitted_log_posterior=vmap(jitted_log_likelihood)(draws)  # %time magic removed: scaffolding

# cell 8
def mh_proposal(prev_val, key):
    key_proposal,key_mh=jax.random.split(key)
    new = prev_val + distrax.Normal(0.,1.).sample(seed=key_proposal)
    log_ratio=jitted_log_likelihood(new)-jitted_log_likelihood(prev_val)
    log_uniform=jnp.log(distrax.Uniform(0.,1.).sample(seed=key_mh))
    accept=log_ratio>log_uniform
    new=jnp.where(accept, new, prev_val)
    return new, prev_val

def metropolis_hastings(key, num_steps):
    multiple_keys = jax.random.split(key, num_steps)
    final, draws = lax.scan(mh_proposal, test_point, multiple_keys)
    return final, draws

single_chain_final, single_chain_draws = metropolis_hastings(initial_key,1_000)

# cell 10
multiple_keys=jax.random.split(initial_key,100)

multiple_chain_final,multiple_chain_draws=vmap(metropolis_hastings,(0,None))(multiple_keys,1_000)
_report({"jit(log_likelihood)"}, 4)  # scaffolding: 4 uses (cells 6, 7, 8, 10)
