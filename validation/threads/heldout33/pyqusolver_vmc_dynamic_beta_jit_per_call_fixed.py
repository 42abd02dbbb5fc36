# source: https://github.com/makskliczkowski/pyqusolver/commit/b5550e644dd558183ace2fbc57f08cba2ffb4db3
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: After b5550e6 acceptance_probability always calls the class-level @jax.jit _acceptance_probability_jax with beta as a traced argument, so all betas share one compilation.

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

import jax
import jax.numpy as jnp
import numpy as np


class VMCSampler:  # scaffolding: only the state acceptance_probability uses (Sampler base, numba paths cut)
    def __init__(self, beta=1.0, mu=2.0):
        self._beta = beta
        self._mu = mu
        self._isjax = True

    @staticmethod
    @jax.jit
    def _acceptance_probability_jax(current_val, candidate_val, beta: float = 1.0, mu: float = 2.0):
        delta = jnp.real(candidate_val) - jnp.real(current_val)
        ratio = jnp.exp(jnp.minimum(beta * mu * delta, 30.0))
        return ratio


    def acceptance_probability(
        self, current_val, candidate_val, beta: float = 1.0, mu: float = 2.0
    ):
        use_beta = beta if beta is not None else self._beta
        if self._isjax:
            return self._acceptance_probability_jax(current_val, candidate_val, beta=use_beta, mu=mu)
        else:
            raise NotImplementedError  # scaffolding: numba backend cut


# scaffolding: parallel-tempering style use - replicas at inverse temperatures other than the sampler's own
sampler = VMCSampler(beta=1.0)
key = jax.random.PRNGKey(0)
current_val = jax.random.normal(key, (16,))
candidate_val = current_val + 0.1
betas = [0.5, 0.25, 0.5, 0.25]
for b in betas:
    acc = sampler.acceptance_probability(current_val, candidate_val, beta=b, mu=2.0)
_report({"jit(_accept_jax_dynamic_beta)", "jit(_acceptance_probability_jax)"}, len(betas))  # scaffolding
