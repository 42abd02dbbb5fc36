# source: https://github.com/kazewong/flowMC/issues/133
# expect: jit-in-loop-or-body at line 96
# runtime: COMPILES 3 CALLS 3
# why: NFProposal.sample runs jax.lax.scan eagerly (sample is not jitted) over the fresh bound method self.sample_loop, so every sampling call retraces the scan body and compiles a new scan program: 3 compiles for 3 calls.
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
from math import ceil  # scaffolding
import jax
import jax.numpy as jnp
from jax import random
import equinox as eqx


class GaussianFlow(eqx.Module):  # scaffolding: stand-in for an NFModel
    mean: jax.Array  # scaffolding
    log_std: jax.Array  # scaffolding

    def sample(self, key, n):  # scaffolding
        return self.mean + jnp.exp(self.log_std) * random.normal(key, (n, self.mean.shape[0]))  # scaffolding

    def log_prob(self, x):  # scaffolding
        z = (x - self.mean) / jnp.exp(self.log_std)  # scaffolding
        return jnp.sum(-0.5 * z**2 - self.log_std, axis=-1)  # scaffolding


class ProposalBase:  # scaffolding: stand-in for flowMC.sampler.Proposal_Base.ProposalBase
    def __init__(self, logpdf, jit, params):  # scaffolding
        self.logpdf = logpdf  # scaffolding
        self.jit = jit  # scaffolding
        self.logpdf_vmap = jax.vmap(logpdf, in_axes=(0, None))  # scaffolding


class NFProposal(ProposalBase):
    def __init__(self, logpdf, jit, model, n_sample_max=10000):
        super().__init__(logpdf, jit, {})
        self.model = model
        self.n_sample_max = n_sample_max

    def model_logprob(self, x):
        if self.jit == True:
            return eqx.filter_jit(self.model.log_prob)(x)
        else:
            return self.model.log_prob(x)

    def sample_loop(self, carry, position):
        """
        Sampling loop to avoid memory issue
        """
        key, data = carry
        key, subkey = random.split(key, 2)
        local_samples = self.model.sample(subkey, self.n_sample_max)
        log_prob_proposal = self.logpdf_vmap(local_samples, data)
        log_prob_nf_proposal = eqx.filter_jit(self.model.log_prob)(local_samples)
        return (key, data), (
            local_samples,
            log_prob_proposal,
            log_prob_nf_proposal,
        )

    def sample(self, rng_key, n_steps, initial_position, data, verbose=False):
        n_chains = initial_position.shape[0]
        n_dim = initial_position.shape[-1]
        rng_key, *subkeys = random.split(rng_key, 3)
        total_size = initial_position.shape[0] * n_steps
        log_prob_initial = self.logpdf_vmap(initial_position, data)[:, None]
        log_prob_nf_initial = self.model_logprob(initial_position)[:, None]
        if total_size > self.n_sample_max:
            n_batch = ceil(total_size / self.n_sample_max)
            n_sample = total_size // n_batch
            local_position = jnp.zeros((n_batch, n_sample, initial_position.shape[-1]))
            _, (
                proposal_position,
                log_prob_proposal,
                log_prob_nf_proposal,
            ) = jax.lax.scan(self.sample_loop, (subkeys[0], data), local_position)

            proposal_position = proposal_position.reshape(-1, n_dim)[:total_size]
            log_prob_proposal = log_prob_proposal.reshape(-1)[:total_size]
            log_prob_nf_proposal = log_prob_nf_proposal.reshape(-1)[:total_size]
        return proposal_position, log_prob_proposal, log_prob_nf_proposal  # scaffolding: the MH kernel part is left out


def logpdf(x, data):  # scaffolding: target density
    return -0.5 * jnp.sum((x - data) ** 2)  # scaffolding


model = GaussianFlow(jnp.zeros(2), jnp.zeros(2))  # scaffolding
proposal = NFProposal(logpdf, True, model, n_sample_max=50)  # scaffolding
initial_position = jnp.zeros((10, 2))  # scaffolding: 10 chains
data = jnp.ones(2)  # scaffolding
calls = 0  # scaffolding
for i in range(3):  # scaffolding: global-sampler rounds
    proposal.sample(random.PRNGKey(i), 20, initial_position, data)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(scan)"}, calls)  # scaffolding
