# source: https://github.com/rlouf/mcx/pull/61
# expect: unhashable-static at line 85
# runtime: ERROR ValueError
# why: velocity_verlet's one_step marks step_size static, but mcx passes the warmup-adapted step size as a traced value, so jit tries to hash a tracer and raises ValueError (non-hashable static argument).
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




# mcx/inference/integrators.py before PR #61 (parent of c015da9) (velocity_verlet; the other three integrators cut)
"""Integrate hamiltonian trajectories on euclidean and riemannian manifolds."""
from functools import partial
from typing import Callable, NamedTuple

import jax
import jax.numpy as np
np.DeviceArray = jax.Array  # scaffolding: the DeviceArray alias was removed from jax.numpy

__all__ = [
    "velocity_verlet",
]  # (the other three integrators cut)


class IntegratorState(NamedTuple):
    position: np.DeviceArray
    momentum: np.DeviceArray
    log_prob_grad: float


Integrator = Callable[[IntegratorState, float], IntegratorState]


# --------------------------------------------------------------------
#                    == EUCLIDEAN INTEGRATORS  ==
# --------------------------------------------------------------------


def velocity_verlet(potential_fn: Callable, kinetic_energy_fn: Callable) -> Integrator:
    """The velocity Verlet integrator, a one-stage second order symplectic integrator [1]_.

    The velocity verlet is a palindromic integrator of the form (b1, a1, b1).
    The velocity verlet has a normalized (by the number of force evaluations
    per time step) stability interval of 2.

    Note
    ----
    Micro-benchmarks on the harmonic oscillator show that pre-computing the
    gradient of the log-probability density function and the kinetic energy
    yields a 10% performance improvement.

    (TODO) reproduce on a more complex potential.

    References
    ----------
    .. [1]: Bou-Rabee, Nawaf, and Jesús Marıa Sanz-Serna. "Geometric
            integrators and the Hamiltonian Monte Carlo method." Acta Numerica 27
            (2018): 113-206.
    """

    b1 = 0.5
    a1 = 1.0

    potential_grad_fn = jax.jit(jax.grad(potential_fn))
    kinetic_energy_grad_fn = jax.jit(jax.grad(kinetic_energy_fn))

    @partial(jax.jit, static_argnums=(1,))
    def one_step(state: IntegratorState, step_size: float) -> IntegratorState:
        position, momentum, log_prob_grad = state

        momentum = momentum - b1 * step_size * log_prob_grad

        kinetic_grad = kinetic_energy_grad_fn(momentum)
        position = position + a1 * step_size * kinetic_grad

        log_prob_grad = potential_grad_fn(position)
        momentum = momentum - b1 * step_size * log_prob_grad

        return IntegratorState(position, momentum, log_prob_grad)

    return one_step



# mcx/inference/proposals.py at the same commit (HMC proposal)
from typing import Tuple  # (proposals.py imports Callable, NamedTuple, Tuple)
# --------------------------------------------------------------------


HMCProposalState = IntegratorState


class HMCProposalInfo(NamedTuple):
    step_size: float
    num_integration_steps: int


Proposer = Callable[
    [jax.random.PRNGKey, HMCProposalState], Tuple[HMCProposalState, HMCProposalInfo]
]


def hmc_proposal(
    integrator: Integrator, step_size: float, num_integration_steps: int = 1
) -> Proposer:
    """Vanilla HMC proposal.

    Given a path length and a step size, the HMC proposer will run the
    appropriate number of integration steps (typically with the velocity Verlet
    algorithm).

    """
    info = HMCProposalInfo(step_size, num_integration_steps)

    @jax.jit
    def propose(
        _, init_state: HMCProposalState
    ) -> Tuple[HMCProposalState, HMCProposalInfo]:
        new_state = jax.lax.fori_loop(
            0,
            num_integration_steps,
            lambda i, state: integrator(state, step_size),
            init_state,
        )
        return new_state, info

    return propose


def potential(position):  # scaffolding: standard normal target, as mcx's _to_potential would build
    return 0.5 * np.sum(position ** 2)  # scaffolding


def kinetic_energy(momentum):  # scaffolding: gaussian_euclidean_metric with unit mass
    return 0.5 * np.sum(momentum ** 2)  # scaffolding


@jax.jit  # scaffolding: stands in for the jitted Stan warmup update, where step_size is a traced warmup-state leaf
def update_fn(step_size, state):  # scaffolding
    integrator_step = velocity_verlet(potential, kinetic_energy)  # scaffolding: as build_kernel in hmc.py
    proposal = hmc_proposal(integrator_step, step_size, 5)  # scaffolding
    new_state, info = proposal(None, state)  # scaffolding
    return new_state  # scaffolding


state = IntegratorState(np.ones(3), np.ones(3), np.ones(3))  # scaffolding
try:  # scaffolding
    for step_size in (0.1, 0.05, 0.2):  # scaffolding: step sizes adapted during warmup
        state = update_fn(np.asarray(step_size), state)  # scaffolding
    _report({"jit(update_fn)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
