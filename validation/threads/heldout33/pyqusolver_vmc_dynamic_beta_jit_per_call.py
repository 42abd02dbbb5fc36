# source: https://github.com/makskliczkowski/pyqusolver/commit/b5550e644dd558183ace2fbc57f08cba2ffb4db3
# expect: jit-in-loop-or-body at line 61
# runtime: COMPILES 4 CALLS 4
# why: Whenever beta differs from the sampler's own, acceptance_probability defines a new jax.jit-wrapped _accept_jax_dynamic_beta (with beta static) in its body and calls it, so every call compiles again, even for a beta value seen before.

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
            if beta is not None and beta != self._beta:

                @partial(jax.jit, static_argnames=("beta",))
                def _accept_jax_dynamic_beta(cv, cdv, beta, mu):
                    log_acceptance_ratio = beta * jnp.real(cdv - cv) * mu
                    return jnp.exp(jnp.minimum(log_acceptance_ratio, 30.0))

                return _accept_jax_dynamic_beta(current_val, candidate_val, use_beta, mu)
            else:
                return self._acceptance_probability_jax(
                    current_val, candidate_val, beta=use_beta, mu=mu
                )
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
