# source: https://github.com/deepqmc/deepqmc/commit/ed552c4d5d76b04ce6b276272ed3ff857193a6aa
# expect: shape-churn at line 89
# runtime: COMPILES 2 CALLS 4
# why: With the commit's lax.cond the sampling step traces, but state['tau'] starts as a weakly typed jnp.array(self.initial_tau) and comes back strongly typed after the first step, so the jitted step compiles twice for 4 calls.
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

from functools import partial
from collections import namedtuple  # scaffolding

import jax
import jax.numpy as jnp
from jax.random import uniform  # scaffolding: deepqmc utils import


Psi = namedtuple('Psi', 'sign log')  # scaffolding: deepqmc's wave-function value


def check_overflow(state_callback, func):  # scaffolding: no overflow handling needed here
    return func


def pairwise_self_distance(r):  # scaffolding: deepqmc.physics helper
    i, j = jnp.triu_indices(r.shape[-2], k=1)
    return jnp.linalg.norm(r[..., i, :] - r[..., j, :], axis=-1)


class Hamil:  # scaffolding: initial electron positions
    def init_sample(self, rng, n):
        return jax.random.normal(rng, (n, 4, 3))


def wf(wf_state, r):  # scaffolding: a Gaussian trial wave function of 4 electrons
    return Psi(jnp.array(1.0), -jnp.sum(r**2) / 2), wf_state


def multinomial_resampling(rng, weights, n_samples=None):
    n = len(weights)
    n_samples = n_samples or n
    weights_normalized = weights / jnp.sum(weights)
    i, j = jnp.triu_indices(n)
    weights_cum = jnp.zeros((n, n)).at[i, j].set(weights_normalized[j]).sum(axis=-1)
    return n - 1 - (uniform(rng, (n_samples,))[:, None] > weights_cum).sum(axis=-1)


def split_dict(dct, cond):
    included, excluded = {}, {}
    for k, v in dct.items():
        (included if cond(k) else excluded)[k] = v
    return included, excluded


class MetropolisSampler:
    WALKER_STATE = ['r', 'psi', 'age']

    def __init__(self, hamil, *, tau, target_acceptance=0.57, max_age=None):
        self.hamil = hamil
        self.initial_tau = tau
        self.target_acceptance = target_acceptance
        self.max_age = max_age

    def _update(self, state, wf):
        psi, wf_state = jax.vmap(wf)(state['wf'], state['r'])
        state = {**state, 'psi': psi, 'wf': wf_state}
        return state

    def init(self, rng, wf, wf_state, n, state_callback=None):
        state = {
            'r': self.hamil.init_sample(rng, n),
            'age': jnp.zeros(n, jnp.int32),
            'tau': jnp.array(self.initial_tau),
            'wf': wf_state,
        }

        @partial(check_overflow, state_callback)
        def update(rng, state, wf):
            return (self._update(state, wf),)

        (state,) = update(None, state, wf)
        return state

    def _proposal(self, state, rng):
        r = state['r']
        return r + state['tau'] * jax.random.normal(rng, r.shape)

    def _acc_log_prob(self, state, prop):
        return 2 * (prop['psi'].log - state['psi'].log)

    def sample(self, rng, state, wf):
        rng_prop, rng_acc = jax.random.split(rng)
        prop = {
            'r': self._proposal(state, rng_prop),
            'age': jnp.zeros_like(state['age']),
            **{k: v for k, v in state.items() if k not in self.WALKER_STATE},
        }
        prop = self._update(prop, wf)
        log_prob = self._acc_log_prob(state, prop)
        accepted = log_prob > jnp.log(jax.random.uniform(rng_acc, log_prob.shape))
        if self.max_age:
            accepted = accepted | (state['age'] >= self.max_age)
        acceptance = accepted.astype(int).sum() / accepted.shape[0]
        if self.target_acceptance:
            prop['tau'] /= self.target_acceptance / jnp.max(
                jnp.stack([acceptance, jnp.array(0.05)])
            )
        state = {**state, 'age': state['age'] + 1}
        (prop, other), (state, _) = (
            split_dict(d, lambda k: k in self.WALKER_STATE) for d in (prop, state)
        )
        state = {
            **jax.tree_util.tree_map(
                lambda xp, x: jax.vmap(jnp.where)(accepted, xp, x), prop, state
            ),
            **other,
        }
        stats = {
            'sampling/acceptance': acceptance,
            'sampling/tau': state['tau'],
            'sampling/age/mean': jnp.mean(state['age']),
            'sampling/age/max': jnp.max(state['age']),
            'sampling/log_psi/mean': jnp.mean(state['psi'].log),
            'sampling/log_psi/std': jnp.std(state['psi'].log),
            'sampling/dists/mean': jnp.mean(pairwise_self_distance(state['r'])),
        }
        return state, state['r'], stats


class ResampledSampler:
    def __init__(self, frequency):
        self.frequency = frequency

    def init(self, *args):
        state = super().init(*args)
        state = {
            **state,
            'step': jnp.array(0),
            'log_weight': jnp.zeros_like(state['psi'].log),
        }
        return state

    def resample_walkers(self, rng_re, state):
        idx = multinomial_resampling(rng_re, jnp.exp(state['log_weight']))
        state, other = split_dict(state, lambda k: k in self.WALKER_STATE)
        state = {
            **jax.tree_util.tree_map(lambda x: x[idx], state),
            **other,
            'step': jnp.array(0),
            'log_weight': jnp.zeros_like(other['log_weight']),
        }
        return state

    def sample(self, rng, state, wf):
        rng_re, rng_smpl = jax.random.split(rng)
        state, _, stats = super().sample(rng_smpl, state, wf)
        state['log_weight'] -= 2 * state['psi'].log
        state = self._update(state, wf)
        state['log_weight'] += 2 * state['psi'].log
        state['step'] += 1
        weight = jnp.exp(state['log_weight'])
        ess = jnp.sum(weight) ** 2 / jnp.sum(weight**2)
        stats['sampling/effective sample size'] = ess
        state = jax.lax.cond(
            state['step'] > self.frequency,
            self.resample_walkers,
            lambda rng, state: state,
            rng_re,
            state,
        )
        return state, state['r'], stats


def chain(*samplers):
    name = 'Sampler'
    bases = tuple(map(type, samplers))
    for base in bases:
        name = name.replace('Sampler', base.__name__)
    chained = type(name, bases, {'__init__': lambda self: None})()
    for sampler in samplers:
        chained.__dict__.update(sampler.__dict__)
    return chained

sampler = chain(ResampledSampler(frequency=2), MetropolisSampler(Hamil(), tau=0.3))  # scaffolding
state = sampler.init(jax.random.PRNGKey(0), wf, {}, 64)  # scaffolding
sample = jax.jit(sampler.sample, static_argnums=(2,))  # scaffolding: the training loop jits the sampling step
try:  # scaffolding
    for step in range(4):  # scaffolding
        state, r, stats = sample(jax.random.PRNGKey(step + 1), state, wf)
    _report({"jit(sample)"}, 4)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
