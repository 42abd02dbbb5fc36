# source: https://github.com/netket/netket/pull/1021
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: with the PR's change the counters default to zero integer arrays, so they are strongly typed from the first call; the state's abstract signature never changes and sample_next compiles once for the three steps.

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
import warnings  # scaffolding
from typing import Any, Optional

import jax
import jax.numpy as jnp
from flax import struct

warnings.filterwarnings("ignore", message="Explicitly requested dtype")  # scaffolding: int64 -> int32 notice with x64 off


@struct.dataclass
class MetropolisSamplerState:
    σ: jnp.ndarray
    """Current batch of configurations in the markov chain."""
    rng: jnp.ndarray
    """State of the random number generator (key, in jax terms)."""
    rule_state: Optional[Any]
    """Optional state of a transition rule."""

    # those are initialised to 0. We want to initialise them to zero arrays because they can
    # be passed to jax jitted functions that require type invariance to avoid recompilation
    n_steps_proc: int = struct.field(
        default_factory=lambda: jnp.zeros((), dtype=jnp.int64)
    )
    """Number of moves performed along the chains in this process since the last reset."""
    n_accepted_proc: int = struct.field(
        default_factory=lambda: jnp.zeros((), dtype=jnp.int64)
    )
    """Number of accepted transitions among the chains in this process since the last reset."""


n_sweeps = 4  # scaffolding: sampler.n_sweeps
n_chains_per_rank = 16  # scaffolding: sampler.n_chains_per_rank
machine_pow = 2  # scaffolding: sampler.machine_pow


def log_psi(parameters, σ):  # scaffolding: stand-in for machine.apply
    return parameters["a"] * σ.sum(axis=-1)  # scaffolding


def transition(key, σ):  # scaffolding: stand-in for a local flip rule
    idx = jax.random.randint(key, (σ.shape[0],), 0, σ.shape[1])  # scaffolding
    return σ.at[jnp.arange(σ.shape[0]), idx].multiply(-1), None  # scaffolding


@jax.jit  # scaffolding: the jitted sampling step used by the calling code
def sample_next(parameters, state):
    new_rng, rng = jax.random.split(state.rng)

    key = rng
    σ = state.σ
    log_prob = machine_pow * log_psi(parameters, state.σ).real

    # for logging
    accepted = state.n_accepted_proc

    for i in range(n_sweeps):
        # 1 to propagate for next iteration, 1 for uniform rng and n_chains for transition kernel
        key, key1, key2 = jax.random.split(key, 3)

        σp, log_prob_correction = transition(key1, σ)
        proposal_log_prob = machine_pow * log_psi(parameters, σp).real

        uniform = jax.random.uniform(key2, shape=(n_chains_per_rank,))
        do_accept = uniform < jnp.exp(proposal_log_prob - log_prob)

        # do_accept must match ndim of proposal and state (which is 2)
        σ = jnp.where(do_accept.reshape(-1, 1), σp, σ)
        accepted += do_accept.sum()

        log_prob = jax.numpy.where(do_accept.reshape(-1), proposal_log_prob, log_prob)

    new_state = state.replace(
        rng=new_rng,
        σ=σ,
        n_accepted_proc=accepted,
        n_steps_proc=state.n_steps_proc + n_sweeps * n_chains_per_rank,
    )

    return new_state, new_state.σ


parameters = {"a": jnp.array(0.3)}  # scaffolding
state = MetropolisSamplerState(  # scaffolding: sampler.init_state
    σ=jnp.ones((n_chains_per_rank, 8)), rng=jax.random.PRNGKey(0), rule_state=None  # scaffolding
)  # scaffolding
for _ in range(3):  # scaffolding: three sampling steps
    state, σ = sample_next(parameters, state)  # scaffolding
_report({"jit(sample_next)"}, 3)  # scaffolding
