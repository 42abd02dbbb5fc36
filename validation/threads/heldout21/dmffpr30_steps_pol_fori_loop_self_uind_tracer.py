# source: https://github.com/deepmodeling/DMFF/pull/30
# expect: stale-closure at line 55
# runtime: COMPILES 1 CALLS 2
# why: with the PR's steps_pol the jitted potential compiles once and runs, but get_energy still assigns self.U_ind inside jit, so after the call pme_force.U_ind holds a leaked tracer instead of the induced dipoles (measured: isinstance(U_ind, Tracer) is True).
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


import jax
import jax.numpy as jnp
from jax import grad, jit

DIELECTRIC = 1389.35455846
POL_CONV, MAX_N_POL = 1.0, 30  # dmff.admp.settings


class ADMPPmeForce:  # dmff/admp/pme.py before the fix, cut to the polarizable branch
    def __init__(self, n_atoms, lpol=True, steps_pol=None):  # scaffolding: box, axis types, covalent map, PME setup cut
        self.n_atoms = n_atoms
        self.lpol = lpol
        self.steps_pol = steps_pol
        self.get_energy = self.generate_get_energy()

    def generate_get_energy(self):
        # this is the bare energy calculator, with Uind as explicit input
        def energy_fn(positions, box, pairs, Q_local, Uind_global, pol, tholes, mScales, pScales, dScales):
            return energy_pme(positions, box, pairs, Q_local, Uind_global, pol, tholes, mScales, pScales, dScales)
        self.energy_fn = energy_fn
        self.grad_U_fn = grad(self.energy_fn, argnums=(4))
        self.grad_pos_fn = grad(self.energy_fn, argnums=(0))
        self.U_ind = jnp.zeros((self.n_atoms, 3))
        # this is the wrapper that include a Uind optimizer
        def get_energy(
                positions, box, pairs, 
                Q_local, pol, tholes, mScales, pScales, dScales, 
                U_init=self.U_ind):
            self.U_ind, self.lconverg, self.n_cycle = self.optimize_Uind(
                    positions, box, pairs, Q_local, pol, tholes, 
                    mScales, pScales, dScales, 
                    U_init=U_init, steps_pol=self.steps_pol)
            # here we rely on Feynman-Hellman theorem, drop the term dV/dU*dU/dr !
            return self.energy_fn(positions, box, pairs, Q_local, self.U_ind, pol, tholes, mScales, pScales, dScales)
        return get_energy

    def optimize_Uind(self, 
            positions, box, pairs, 
            Q_local, pol, tholes, mScales, pScales, dScales, 
            U_init=None, steps_pol=None,
            maxiter=MAX_N_POL, thresh=POL_CONV):
        positions = jax.lax.stop_gradient(positions)
        box = jax.lax.stop_gradient(box)
        Q_local = jax.lax.stop_gradient(Q_local)
        pol = jax.lax.stop_gradient(pol)
        if U_init is None:
            U = jnp.zeros((self.n_atoms, 3))
        else:
            U = U_init
        if steps_pol is None:
            site_filter = (pol>0.001) # focus on the actual polarizable sites

        if steps_pol is None:
            for i in range(maxiter):
                field = self.grad_U_fn(positions, box, pairs, Q_local, U, pol, tholes, mScales, pScales, dScales)
                if jnp.max(jnp.abs(field[site_filter])) < thresh:
                    break
                U = U - field * pol[:, jnp.newaxis] / DIELECTRIC
            if i == maxiter-1:
                flag = False
            else: # converged
                flag = True
        else:
            def update_U(i, U):
                field = self.grad_U_fn(positions, box, pairs, Q_local, U, pol, tholes, mScales, pScales, dScales)
                U = U - field * pol[:, jnp.newaxis] / DIELECTRIC
                return U
            U = jax.lax.fori_loop(0, steps_pol, update_U, U)
            flag = True
        return U, flag, steps_pol


def energy_pme(positions, box, pairs, Q_local, U, pol, tholes, mScales, pScales, dScales):  # scaffolding: a quadratic stand-in for the real-space + reciprocal PME energy
    E_perm = positions[pairs[:, 1]] - positions[pairs[:, 0]]
    field0 = jnp.zeros_like(positions).at[pairs[:, 0]].add(E_perm * Q_local[pairs[:, 1], None])
    return jnp.sum(Q_local) + 0.5 * DIELECTRIC * jnp.sum(U ** 2 / pol[:, None]) - DIELECTRIC * jnp.sum(U * field0)


pme_force = ADMPPmeForce(4, lpol=True, steps_pol=5)  # the PR: createForce now passes step_pol from the user args
positions = jnp.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.2, 0.0], [0.3, 0.2, 0.9]])
pairs = jnp.array([[0, 1], [0, 2], [1, 3], [2, 3]])
Q_local, pol = jnp.array([0.4, -0.4, 0.2, -0.2]), jnp.array([1.0, 0.5, 0.0, 0.8])
box = jnp.eye(3) * 3.0
try:  # scaffolding
    jitted = jit(pme_force.get_energy)  # the user jits the returned potential (the PR: 'fix it can not be jitted')
    for _ in range(2):  # scaffolding
        E = jitted(positions, box, pairs, Q_local, pol, None, None, None, None)
    print("U_ind is a tracer:", isinstance(pme_force.U_ind, jax.core.Tracer))  # scaffolding
    _report({"jit(get_energy)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
