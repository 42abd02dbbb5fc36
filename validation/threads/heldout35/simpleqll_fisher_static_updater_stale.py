# source: https://github.com/Rumoa/simple-QLL/blob/f4424a3ee56737d3f9231c54a9a685e5f635c8cb/optimization.py
# expect: stale-closure at line 129
# runtime: COMPILES 1 CALLS 4
# why: fisher_inf_matrix is jitted with the SMC updater as static argument 0 and reads updater.particle_weights/particle_locations at trace time; run_case calls it every shot after updater.update() changes the particles, but the cached trace keeps the first shot's particles, so the jitted objective is stale (compiled once, results differ from eager).

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
import numpy as np

import jax

from functools import partial


from jax.scipy.linalg import expm

import jax.numpy as jnp
from jax import random, vmap
from jax import jit

key = random.PRNGKey(0)


class simple_precession_with_noise:  # scaffolding: qinfer.FiniteOutcomeModel base and qutip dropped (not installed)
    def __init__(self):
        self.jump_operator_bare = np.array([[0, 1], [1, 0]], dtype=complex)  # scaffolding: qu.sigmax().full()
        self.measurement_projectors = [
            jnp.array([[1, 0], [0, 0]]),
            jnp.array([[0, 0], [0, 1]]),
        ]
        self.H_operator_bare = jnp.array(np.array([[0, 1], [1, 0]], dtype=complex))  # scaffolding: qu.sigmax().full()

        self.rho0_bare = jnp.array(np.array([[1, 0], [0, 0]], dtype=complex))  # scaffolding: qu.ket2dm(qu.basis(2, 0)).full()
        self.n_qubits = 1

    @partial(jit, static_argnums=(0,), static_argnames=['gamma'])
    def single_qu_likelihood_explicit_pr0(self, final_t, omega, gamma):


        H0 = 2 * jnp.pi * omega * self.H_operator_bare

        final_dm = self.jnp_evolve_dm(self.rho0_bare, H0, gamma, final_t)

        p_0 = jnp.array(self.compute_likelihood_0(final_dm))

 
        return p_0    


    @partial(jit, static_argnums=(0,))
    def single_qu_likelihood_explicit_pr1(self, final_t, omega, gamma):


        H0 = 2 * jnp.pi * omega * self.H_operator_bare

        final_dm = self.jnp_evolve_dm(self.rho0_bare, H0, gamma, final_t)

        p_0 = jnp.array(self.compute_likelihood_0(final_dm))

        
        return 1-p_0
        

    # @classmethod
    def make_dissipator_super(self):
        return jnp.array(qu.lindblad_dissipator(self.jump_operator).full())

    def compute_likelihood_0(self, rho):
        return jnp.abs(jnp.real(jnp.trace(rho @ self.measurement_projectors[0])))

    @partial(jit, static_argnums=(0,))
    def jnp_evolve_dm(self, rho0, H, gamma, t):
        L = self.my_liouvillian(H, gamma * self.jump_operator_bare)
        rho0_vec = rho0.reshape(-1, 1)
        rho_t_vec = expm(L * t) @ rho0_vec
        rho_t = rho_t_vec.reshape(-1, 2)
        return rho_t

    @partial(jit, static_argnums=(0,))
    def my_spre(self, A: jnp.array) -> jnp.array:
        return jnp.kron(jnp.identity((int(2**self.n_qubits))), A)

    @partial(jit, static_argnums=(0,))
    def my_spost(self, A: jnp.array) -> jnp.array:
        return jnp.kron(A.T, jnp.identity((int(2**self.n_qubits))))

    @partial(jit, static_argnums=(0,))
    def dag(self, A: jnp.array) -> jnp.array:
        return jnp.conjugate(jnp.transpose(A))

    @partial(jit, static_argnums=(0,))
    def dissipator(self, A: jnp.array) -> jnp.array:
        return (
            self.my_spre(A) @ self.my_spost(self.dag(A))
            - 0.5 * self.my_spre(self.dag(A) @ A)
            - 0.5 * self.my_spost(self.dag(A) @ A)
        )

    @partial(jit, static_argnums=(0,))
    def lindblad_hamiltonian_part(self, A: jnp.array) -> jnp.array:
        return -1j * (self.my_spre(A) - self.my_spost(A))

    @partial(jit, static_argnums=(0,))
    def my_liouvillian(self, H: jnp.array, jump_op: jnp.array) -> jnp.array:
        return self.lindblad_hamiltonian_part(H) + self.dissipator(jump_op)


@partial(jit, static_argnums=(0,))
def fisher_inf_matrix(updater, t):
    weights = updater.particle_weights
    locations = updater.particle_locations
    labels = {"omega": 0, "gamma": 1}
    # WHAT IS OMEGA GAMMA IN TERMS OF LOCATIONS

    aux0 = jnp.zeros(len(weights))
    pr0 = get_all_probs_explicit(updater, t, locations[:, 0], locations[:, 1], aux0)
    pr1 = 1.0 - pr0

    devpr0 = get_grad_log_lkl_0(updater, t, locations[:, 0], locations[:, 1], aux0)

    devpr1 = get_grad_log_lkl_1(updater, t, locations[:, 0], locations[:, 1], aux0)

    return -jnp.sum((devpr0**2 * pr0 + pr1*devpr1**2 )* weights)

    # CALL gradient ( get all probs )
    # CALL get all probs

    # for i, location_i in enumerate(locations):
    #     #CALL THE DERIVATIVE OF THIS
    #     updater.model.single_qu_likelihood_explicit(
    #         t, location_i[labels["omega"]], location_i[labels["gamma"]]
    #     )
    # PUT AN ARRAY IN THIS PLACE

    pass


@partial(jit, static_argnums=(0,))
def get_all_probs_explicit(updater, t, omegas, gammas, array_aux):
    prs = jnp.copy(array_aux)
    for i, _ in enumerate(omegas):
        pr_i = updater.model.single_qu_likelihood_explicit_pr0(t, omegas[i], gammas[i])

        prs = prs.at[i].set(pr_i)

    return prs


@partial(jit, static_argnums=(0,))
def get_grad_log_lkl_0(updater, t, omegas, gammas, array_aux):
    prs = jnp.copy(array_aux)
    for i, _ in enumerate(omegas):
        pr_i = jax.grad(get_single_log_lkl_0, 3)(updater, t, omegas[i], gammas[i])

        prs = prs.at[i].set(pr_i)

    return prs


@partial(jit, static_argnums=(0,))
def get_grad_log_lkl_1(updater, t, omegas, gammas, array_aux):
    prs = jnp.copy(array_aux)
    for i, _ in enumerate(omegas):
        pr_i = jax.grad(get_single_log_lkl_1, 3)(updater, t, omegas[i], gammas[i])

        prs = prs.at[i].set(pr_i)

    return prs


@partial(jit, static_argnums=(0,))
def get_single_log_lkl_0(updater, t, omega, gamma):
    return jnp.log(updater.model.single_qu_likelihood_explicit_pr0(t, omega, gamma))


@partial(jit, static_argnums=(0,))
def get_single_log_lkl_1(updater, t, omega, gamma):
    return jnp.log(updater.model.single_qu_likelihood_explicit_pr1(t, omega, gamma))


class SMCUpdater:  # scaffolding: stand-in for qinfer.SMCUpdater (an ordinary mutable object, hashed by id)
    def __init__(self, model, n_particles):
        self.model = model
        self.rng = np.random.default_rng(0)
        self.particle_locations = self.rng.uniform(0, 0.5, (n_particles, 2))
        self.particle_weights = np.ones(n_particles) / n_particles

    def update(self):  # scaffolding: new weights and jittered particles after each measured datum
        self.particle_weights = self.rng.dirichlet(np.ones(len(self.particle_weights)))
        self.particle_locations = np.clip(self.particle_locations + 0.05 * self.rng.normal(size=self.particle_locations.shape), 0.01, 1.0)


updater = SMCUpdater(simple_precession_with_noise(), 5)  # scaffolding
n_shots = 4  # scaffolding: run_case's experiment loop, cut down
outputs = []  # scaffolding
for i in range(n_shots):  # scaffolding
    t = 1.0  # scaffolding: one objective evaluation at a fixed time instead of optimize(guess, fisher_inf_matrix, updater)
    jitted = float(fisher_inf_matrix(updater, t))  # scaffolding
    with jax.disable_jit():  # scaffolding: the same objective evaluated eagerly with the current particles
        eager = float(fisher_inf_matrix(updater, t))  # scaffolding
    outputs.append((round(jitted, 6), round(eager, 6)))  # scaffolding
    updater.update()  # scaffolding: stands for updater.update(datum, experiment)
print("OUTPUTS (jitted, eager)", outputs)  # scaffolding
_report({"jit(fisher_inf_matrix)"}, n_shots)  # scaffolding
