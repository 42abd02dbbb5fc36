# source: https://github.com/ellingsvee/MA8702/blob/8c1f19d8824db1289db62261af9c5e58773978dd/project_1_MCMC_techniques/code/src/mcmc/tuning_experiment.py
# expect: jit-in-loop-or-body at line 40
# runtime: COMPILES 4 CALLS 4
# why: run_tuning_experiment sweeps the proposal sigma; each value builds a new kernel closure and inference_loop re-creates the @jax.jit one_step and runs an eager lax.scan over it, so the scan is traced and compiled again for every sigma.

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
# --- mcmc/inference.py ---
from os import PathLike
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats
from jax import Array


def inference_loop(rng_key, kernel, initial_state, num_samples):
    @jax.jit
    def one_step(state, rng_key):
        new_state, info = kernel(rng_key, state)
        return new_state, (new_state, info)

    keys = jax.random.split(rng_key, num_samples)
    _, (states, infos) = jax.lax.scan(one_step, initial_state, keys)

    return states, infos


# --- mcmc/random_walk.py ---
class RWState(NamedTuple):
    position: Array
    logdensity: Array


class RWInfo(NamedTuple):
    acceptance_rate: Array
    is_accepted: Array
    proposal: RWState


def init(position: Array, logdensity_fn: Callable) -> RWState:
    return RWState(position, logdensity_fn(position))


def build_kernel(logdensity_fn: Callable, step_size: float) -> Callable:
    def kernel(
        rng_key: Array,
        state: RWState,
    ) -> tuple[RWState, RWInfo]:
        # Generate proposal: x' = x + step_size * N(0, I)
        key_proposal, key_accept = jax.random.split(rng_key)
        proposal = state.position + step_size * jax.random.normal(
            key_proposal, shape=state.position.shape
        )

        # Compute log probability at proposal
        proposal_logdensity = logdensity_fn(proposal)

        # Compute acceptance ratio (symmetric proposal cancels out)
        log_ratio = proposal_logdensity - state.logdensity
        acceptance_prob = jnp.minimum(1.0, jnp.exp(log_ratio))

        # Accept or reject
        u = jax.random.uniform(key_accept)
        accepted = u < acceptance_prob

        # Update state (use lax.cond for cleaner scalar handling)
        new_position = jax.lax.select(accepted, proposal, state.position)
        new_logdensity = jax.lax.select(accepted, proposal_logdensity, state.logdensity)
        new_state = RWState(new_position, new_logdensity)

        # Store info
        info = RWInfo(acceptance_prob, accepted, RWState(proposal, proposal_logdensity))

        return new_state, info

    return kernel


# --- mcmc/densities.py (logdensity_mvn only) ---
def logdensity_mvn(x):
    cov = jnp.array([[1.0, 0.8], [0.8, 1.0]])
    return stats.multivariate_normal.logpdf(x, mean=jnp.zeros(2), cov=cov)


# --- mcmc/tuning_experiment.py (plotting cut) ---
def run_tuning_experiment(
    init_fn: Callable,
    build_kernel_fn: Callable,
    logdensity_fn: Callable,
    filename: PathLike[str],
    sigma_values=[0.1, 0.5, 1.0, 1.5],
) -> None:
    # Run with different sigma values
    num_steps = 1000  # scaffolding: 10000 in the repo
    burnin = 100  # scaffolding: 1000 in the repo

    key = jax.random.key(42)
    initial_pos = jnp.array([0.0, 0.0])

    initial_state = init_fn(initial_pos, logdensity_fn)
    for i, sigma in enumerate(sigma_values):
        kernel = build_kernel_fn(logdensity_fn, sigma)

        # Run chain
        key, subkey = jax.random.split(key)
        samples, infos = inference_loop(subkey, kernel, initial_state, num_steps)

        # Remove burnin
        positions = samples.position[burnin:]
        accept = infos.is_accepted[burnin:]

        # Acceptance rate
        acc_rate = float(jnp.mean(accept))
        # (trace, ACF and scatter plots cut)


# --- tasks/rwmh_chain.py (first target only) ---
run_tuning_experiment(init, build_kernel, logdensity_mvn, "output/rwmh/tuning_mvn")
_report({"jit(scan)", "jit(one_step)"}, 4)  # scaffolding
