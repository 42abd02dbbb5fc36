# source: https://github.com/kazewong/flowMC/issues/133
# expect: none
# runtime: COMPILES 42 CALLS 3
# why: the fix (bd8329e) drops sample_loop and the eager scan: the batches are drawn in a Python for loop of eager model.sample/log_prob calls, whose small op programs are compiled on the first call and reused, so three sampling calls compile nothing new after the first.
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

    def sample(self, rng_key, n_steps, initial_position, data, verbose=False):
        n_chains = initial_position.shape[0]
        n_dim = initial_position.shape[-1]
        rng_key, *subkeys = random.split(rng_key, 3)
        total_size = initial_position.shape[0] * n_steps
        log_prob_initial = self.logpdf_vmap(initial_position, data)[:, None]
        log_prob_nf_initial = self.model.log_prob(initial_position)[:, None]
        if total_size > self.n_sample_max:
            sampling_key = subkeys[0]
            n_batch = ceil(total_size / self.n_sample_max)
            n_sample = total_size // n_batch
            proposal_position = jnp.zeros((n_batch, n_sample, initial_position.shape[-1]))
            log_prob_proposal = jnp.zeros((n_batch, n_sample))
            log_prob_nf_proposal = jnp.zeros((n_batch, n_sample))
            for i in range(n_batch):
                sampling_key, subkey = random.split(sampling_key)
                proposal_position = proposal_position.at[i].set(
                    self.model.sample(subkey, n_sample)
                )
                log_prob_proposal = log_prob_proposal.at[i].set(
                    self.logpdf_vmap(proposal_position[i], data)
                )
                log_prob_nf_proposal = log_prob_nf_proposal.at[i].set(
                    self.model.log_prob(proposal_position[i])
                )

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
_report(set(_COMPILED), calls)  # scaffolding: every compile of the run
