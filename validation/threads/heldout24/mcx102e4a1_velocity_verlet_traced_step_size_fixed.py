# source: https://github.com/rlouf/mcx/commit/102e4a11471c7375c5fcbb04992e7d4058d93d6a
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: after the commit one_step is a plain @jax.jit with step_size traced, so the array step size is fine and the proposal compiles once for its 5 calls.

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


from typing import Callable, NamedTuple, Tuple

import jax
import jax.numpy as np

np.DeviceArray = jax.Array  # scaffolding: np.DeviceArray (2020 annotations) no longer exists in jax.numpy


# --- mcx/inference/integrators.py (after the commit) ---
class IntegratorState(NamedTuple):
    position: np.DeviceArray
    momentum: np.DeviceArray
    log_prob_grad: float


Integrator = Callable[[IntegratorState, float], IntegratorState]


def velocity_verlet(potential_fn: Callable, kinetic_energy_fn: Callable) -> Integrator:
    """The velocity Verlet integrator, a one-stage second order symplectic integrator [1]_.

    The velocity verlet is a palindromic integrator of the form (b1, a1, b1).
    The velocity verlet has a normalized (by the number of force evaluations
    per time step) stability interval of 2.
    """

    b1 = 0.5
    a1 = 1.0

    potential_grad_fn = jax.jit(jax.grad(potential_fn))
    kinetic_energy_grad_fn = jax.jit(jax.grad(kinetic_energy_fn))

    @jax.jit
    def one_step(state: IntegratorState, step_size: float) -> IntegratorState:
        position, momentum, log_prob_grad = state

        momentum = momentum - b1 * step_size * log_prob_grad

        kinetic_grad = kinetic_energy_grad_fn(momentum)
        position = position + a1 * step_size * kinetic_grad

        log_prob_grad = potential_grad_fn(position)
        momentum = momentum - b1 * step_size * log_prob_grad

        return IntegratorState(position, momentum, log_prob_grad)

    return one_step


# --- mcx/inference/metrics.py (diagonal branch) ---
def gaussian_euclidean_metric(
    inverse_mass_matrix: np.DeviceArray,
) -> Tuple[Callable, Callable]:
    """Emulate dynamics on an Euclidean Manifold [1]_ for vanilla Hamiltonian
    Monte Carlo with a standard gaussian as the conditional probability density
    :math:`\\pi(momentum|position)`.
    """
    ndim = np.ndim(inverse_mass_matrix)
    shape = np.shape(inverse_mass_matrix)[:1]

    if ndim == 1:  # diagonal mass matrix

        mass_matrix_sqrt = np.sqrt(np.reciprocal(inverse_mass_matrix))

        @jax.jit
        def momentum_generator(rng_key: jax.random.PRNGKey) -> np.DeviceArray:
            std = jax.random.normal(rng_key, shape)
            p = np.multiply(std, mass_matrix_sqrt)
            return p

        @jax.jit
        def kinetic_energy(momentum: np.DeviceArray) -> float:
            velocity = np.multiply(inverse_mass_matrix, momentum)
            return 0.5 * np.dot(velocity, momentum)

        return momentum_generator, kinetic_energy

    else:  # scaffolding: the dense-matrix branch is cut
        raise ValueError("only the diagonal mass matrix is kept here")  # scaffolding


# --- mcx/inference/proposals.py ---
HMCProposalState = IntegratorState


class HMCProposalInfo(NamedTuple):
    step_size: float
    num_integration_steps: int


def hmc_proposal(
    integrator: Integrator, step_size: float, num_integration_steps: int = 1
):
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


# --- driver: a standard-normal target; the step size comes out of dual averaging as an array --- scaffolding
def potential_fn(x):  # scaffolding: -log p(x) of a 3-d standard normal
    return 0.5 * np.sum(x ** 2)  # scaffolding


inverse_mass_matrix = np.ones(3)  # scaffolding
momentum_generator, kinetic_energy = gaussian_euclidean_metric(inverse_mass_matrix)  # scaffolding
integrator_step = velocity_verlet(potential_fn, kinetic_energy)  # scaffolding
log_step_size = np.log(0.1)  # scaffolding: as in warmup/stan.py
step_size = np.exp(log_step_size)  # scaffolding: stan.py: step_size = np.exp(warmup_state.da_state.log_step_size)
proposal = hmc_proposal(integrator_step, step_size, 10)  # scaffolding
rng_key = jax.random.PRNGKey(0)  # scaffolding
position = np.array([1.0, -0.5, 2.0])  # scaffolding
for i in range(5):  # scaffolding: 5 HMC proposals (the accept step is cut)
    rng_key, key = jax.random.split(rng_key)  # scaffolding
    momentum = momentum_generator(key)  # scaffolding
    state = IntegratorState(position, momentum, jax.grad(potential_fn)(position))  # scaffolding
    new_state, info = proposal(key, state)  # scaffolding
    position = new_state.position  # scaffolding
print(np.round(position, 3))  # scaffolding
_report({"jit(propose)"}, 5)  # scaffolding
