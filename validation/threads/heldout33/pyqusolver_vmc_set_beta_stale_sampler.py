# source: https://github.com/makskliczkowski/pyqusolver/commit/6a76ba2f0050649968ddf1e8a10024c3e32786e6
# expect: stale-closure at line 191
# runtime: COMPILES 1 CALLS 2
# why: get_sampler bakes self._beta into a jax.jit-compiled sampler that sample() keeps in self._static_sample_fun; set_beta only reassigns the attribute, so the next sample() reuses the compiled sampler with the old beta (no recompile, identical acceptance).

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
from typing import Any, Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np

DEFAULT_JP_INT_TYPE = jnp.int32  # scaffolding


class VMCSampler:  # scaffolding: reduced to the state the static-sampler cache uses
    def __init__(self, net_callable, shape, numchains=8, numsamples=4, mu=2.0, beta=1.0):
        self._isjax = True
        self._is_pt = False
        self._pt_betas = None
        self._donate_buffers = False
        self._net_callable = net_callable
        self._shape = shape
        self._size = int(np.prod(shape))
        self._numchains = numchains
        self._numsamples = numsamples
        self._therm_steps = 2
        self._sweep_steps = 1
        self._updates_per_sample = 1
        self._mu = mu
        self._beta = beta
        self._logprob_fact = 0.5
        self._upd_fun = None
        self._log_psi_delta_fun = None
        self._log_psi_delta_cache_init_fun = None
        self._log_psi_delta_supports_cache = False
        self._static_sample_fun = None
        self._static_sample_therm_steps = None
        self._jit_cache = {}
        self._needs_thermalization = True

    @staticmethod
    def _static_sample_jax(states_init, rng_k_init, num_proposed_init, num_accepted_init, params,
                           num_samples, num_chains, total_therm_updates, updates_per_sample, shape,
                           update_proposer, net_callable_fun, mu, beta, logprob_fact,
                           log_psi_delta_fun, log_psi_delta_cache_init_fun, log_psi_delta_supports_cache):
        # scaffolding: stand-in Metropolis kernel (single spin flips, acceptance exp(beta*mu*delta))
        def step(carry, _):
            s, key, n_acc = carry
            key, k1, k2 = jax.random.split(key, 3)
            site = jax.random.randint(k1, (num_chains,), 0, s.shape[1])
            s_new = s.at[jnp.arange(num_chains), site].multiply(-1)
            delta = net_callable_fun(params, s_new) - net_callable_fun(params, s)
            keep = jnp.log(jax.random.uniform(k2, (num_chains,))) < beta * mu * delta
            s = jnp.where(keep[:, None], s_new, s)
            return (s, key, n_acc + keep), s
        (s, key, n_acc), samples = jax.lax.scan(step, (states_init, rng_k_init, num_accepted_init),
                                                None, length=total_therm_updates + num_samples)
        probs = n_acc / (total_therm_updates + num_samples)
        return (s, net_callable_fun(params, s), key, num_proposed_init, n_acc), samples, probs

    def _get_sampler_jax(
        self,
        num_samples: Optional[int] = None,
        num_chains: Optional[int] = None,
        therm_steps: Optional[int] = None,
    ) -> Callable:
        if not self._isjax:
            raise RuntimeError("Static JAX sampler getter only available for JAX backend.")

        static_num_samples  = num_samples if num_samples is not None else self._numsamples
        static_num_chains   = num_chains if num_chains is not None else self._numchains
        static_therm_steps  = self._therm_steps if therm_steps is None else int(therm_steps)

        baked_args = {
            "num_samples"           : static_num_samples,
            "num_chains"            : static_num_chains,
            "total_therm_updates"   : static_therm_steps * self._sweep_steps * self._size,
            "updates_per_sample"    : self._updates_per_sample,
            "shape"                 : self._shape,
            "update_proposer"       : self._upd_fun,
            "net_callable_fun"      : self._net_callable,
            "mu"                    : self._mu,
            "beta"                  : self._beta,
            "logprob_fact"          : self._logprob_fact,
            "log_psi_delta_fun"     : self._log_psi_delta_fun,
            "log_psi_delta_cache_init_fun": self._log_psi_delta_cache_init_fun,
            "log_psi_delta_supports_cache": self._log_psi_delta_supports_cache,
        }

        partial_sampler = partial(VMCSampler._static_sample_jax, **baked_args)
        int_dtype       = DEFAULT_JP_INT_TYPE

        def wrapped_sampler_impl(
            states_init         : jax.Array,
            rng_k_init          : jax.Array,
            params              : Any,
            num_proposed_init   : Optional[jax.Array] = None,
            num_accepted_init   : Optional[jax.Array] = None,
        ):

            _num_proposed_init = (
                jnp.zeros(static_num_chains, dtype=int_dtype)
                if num_proposed_init is None
                else num_proposed_init
            )
            _num_accepted_init = (
                jnp.zeros(static_num_chains, dtype=int_dtype)
                if num_accepted_init is None
                else num_accepted_init
            )

            final_state_tuple, samples_tuple, probs = partial_sampler(
                states_init=states_init,
                rng_k_init=rng_k_init,
                num_proposed_init=_num_proposed_init,
                num_accepted_init=_num_accepted_init,
                params=params,
            )
            return final_state_tuple, samples_tuple, probs

        if self._donate_buffers:
            return jax.jit(wrapped_sampler_impl, donate_argnums=(0, 1))
        return jax.jit(wrapped_sampler_impl)

    def get_sampler(self, num_samples: Optional[int] = None, num_chains: Optional[int] = None, therm_steps: Optional[int] = None) -> Callable:
        '''
        Get a sampler function with the given number of samples and chains baked in as static arguments.
        '''
        effective_therm_steps = self._therm_steps if therm_steps is None else int(therm_steps)
        cache_key = (
            num_samples if num_samples is not None else self._numsamples,
            num_chains  if num_chains  is not None else self._numchains,
            effective_therm_steps,
            self._isjax,
            self._is_pt,
            self._donate_buffers if self._isjax else False,
            self._updates_per_sample,
            self._mu,
            self._beta if not self._is_pt else None,
            tuple(np.asarray(self._pt_betas).tolist()) if self._is_pt and self._pt_betas is not None else None,
            id(self._upd_fun),
            id(self._net_callable),
            id(self._log_psi_delta_fun),
            id(self._log_psi_delta_cache_init_fun),
            bool(self._log_psi_delta_supports_cache),
        )

        if hasattr(self, "_jit_cache") and cache_key in self._jit_cache:
            return self._jit_cache[cache_key]

        if self._isjax:
            sampler = self._get_sampler_jax(num_samples, num_chains, therm_steps=effective_therm_steps)
        elif not self._isjax:
            sampler = self._get_sampler_np(num_samples, num_chains)
        else:
            raise RuntimeError("Sampler backend must be either 'jax' or 'numpy'.")

        if hasattr(self, "_jit_cache"):
            self._jit_cache[cache_key] = sampler

        return sampler


    def set_mu(self, mu):
        self._mu = mu

    def set_beta(self, beta):
        self._beta = beta

    def sample(self, params):  # scaffolding: the JAX branch of VMCSampler.sample, reduced
        current_states = self._states
        current_proposed = jnp.zeros(self._numchains, dtype=DEFAULT_JP_INT_TYPE)
        current_accepted = jnp.zeros(self._numchains, dtype=DEFAULT_JP_INT_TYPE)
        used_num_samples, used_num_therm = self._numsamples, self._therm_steps
        effective_therm_steps = used_num_therm if self._needs_thermalization else 0
        if self._static_sample_fun is None or self._static_sample_therm_steps != effective_therm_steps:
            self._static_sample_fun = self.get_sampler(num_samples=used_num_samples, num_chains=self._numchains, therm_steps=effective_therm_steps)
            self._static_sample_therm_steps = effective_therm_steps

        final_state_tuple, samples_tuple, probs = self._static_sample_fun(
            states_init=current_states,
            rng_k_init=self._rng_k,
            params=params,
            num_proposed_init=current_proposed,
            num_accepted_init=current_accepted,
        )
        return probs


# scaffolding: anneal the inverse temperature between two sampling rounds from the same start state
net = lambda params, s: jnp.sum(params * s, axis=-1)  # toy log|psi|
params = jnp.linspace(-1.0, 1.0, 6)
sampler = VMCSampler(net, shape=(6,), numchains=64, numsamples=20)
sampler._needs_thermalization = False
start = jnp.where(jax.random.bernoulli(jax.random.PRNGKey(1), 0.5, (64, 6)), 1.0, -1.0)
sampler._states, sampler._rng_k = start, jax.random.PRNGKey(0)
acc_beta1 = sampler.sample(params)
sampler.set_beta(0.01)
sampler._states, sampler._rng_k = start, jax.random.PRNGKey(0)
acc_beta_small = sampler.sample(params)
print("stale (same acceptance after set_beta):", bool(jnp.all(acc_beta1 == acc_beta_small)))  # scaffolding
_report({"jit(wrapped_sampler_impl)"}, 2)  # scaffolding
