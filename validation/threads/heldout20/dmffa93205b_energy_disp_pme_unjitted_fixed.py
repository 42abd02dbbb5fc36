# source: https://github.com/deepmodeling/DMFF/commit/a93205b28d976d7d9e0fb9d6da650dc8288c4be3
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With the decorator removed energy_disp_pme runs as plain Python around the jitted pieces; disp_pme_self (pmax static) compiles once for the 3 calls.

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
from jax import jit, value_and_grad, vmap

DO_JIT = True  # scaffolding: dmff.settings


# dmff/utils.py
def jit_condition(*args, **kwargs):
    def jit_deco(func):
        if DO_JIT:
            return jit(func, *args, **kwargs)
        else:
            return func

    return jit_deco


def setup_ewald_parameters(rc, ethresh, box):  # scaffolding: dmff.admp.pme, reduced
    kappa = jnp.sqrt(-jnp.log(2 * ethresh)) / rc
    K1, K2, K3 = (int(jnp.ceil(2 * kappa * box[i, i] / 3 / ethresh ** 0.2)) for i in range(3))
    return kappa, K1, K2, K3


def generate_pme_recip(Ck_fn, kappa, lpme, pme_order, K1, K2, K3, lmax):  # scaffolding: a stand-in reciprocal-space calculator
    def recip(positions, box, c):
        return -kappa ** 3 * jnp.sum(c) ** 2 / jnp.linalg.det(box) / (K1 * K2 * K3) ** 0.0
    return recip


Ck_6 = Ck_8 = Ck_10 = None  # scaffolding


def disp_pme_real(positions, box, pairs, c_list, mScales, covalent_map, kappa, pmax):  # scaffolding: C6 term only, no exclusions
    dr = positions[pairs[:, 0]] - positions[pairs[:, 1]]
    dr2 = jnp.sum(dr * dr, axis=1)
    x2 = kappa * kappa * dr2
    g6 = (1 + x2 + 0.5 * x2 * x2) * jnp.exp(-x2)
    return jnp.sum((g6 - 1) * c_list[pairs[:, 0], 0] * c_list[pairs[:, 1], 0] / dr2 ** 3)


# dmff/admp/disp_pme.py (docstrings left out)
class ADMPDispPmeForce:

    def __init__(self, box, covalent_map, rc, ethresh, pmax, lpme=True):
        self.covalent_map = covalent_map
        self.rc = rc
        self.ethresh = ethresh
        self.pmax = pmax
        # Need a different function for dispersion ??? Need tests
        self.lpme = lpme
        if lpme:
            kappa, K1, K2, K3 = setup_ewald_parameters(rc, ethresh, box)
            self.kappa = kappa
            self.K1 = K1
            self.K2 = K2
            self.K3 = K3
        else:
            self.kappa = 0.0
            self.K1 = 0
            self.K2 = 0
            self.K3 = 0
        self.pme_order = 6
        # setup calculators
        self.refresh_calculators()
        return


    def generate_get_energy(self):
        def get_energy(positions, box, pairs, c_list, mScales):
            return energy_disp_pme(positions, box, pairs,
                                  c_list, mScales, self.covalent_map,
                                  self.kappa, self.K1, self.K2, self.K3, self.pmax,
                                  self.d6_recip, self.d8_recip, self.d10_recip, lpme=self.lpme)
        return get_energy


    def update_env(self, attr, val):
        setattr(self, attr, val)
        self.refresh_calculators()


    def refresh_calculators(self):
        self.d6_recip = generate_pme_recip(Ck_6, self.kappa, True, self.pme_order, self.K1, self.K2, self.K3, 0)
        if self.pmax >= 8:
            self.d8_recip = generate_pme_recip(Ck_8, self.kappa, True, self.pme_order, self.K1, self.K2, self.K3, 0)
        else:
            self.d8_recip = None
        if self.pmax >= 10:
            self.d10_recip = generate_pme_recip(Ck_10, self.kappa, True, self.pme_order, self.K1, self.K2, self.K3, 0)
        else:
            self.d10_recip = None
        # create the energy calculator according to PME environment
        self.get_energy = self.generate_get_energy()
        self.get_forces = value_and_grad(self.get_energy)
        return


def energy_disp_pme(positions, box, pairs,
        c_list, mScales, covalent_map,
        kappa, K1, K2, K3, pmax,
        recip_fn6, recip_fn8, recip_fn10, lpme=True):

    if lpme is False:
        kappa = 0

    ene_real = disp_pme_real(positions, box, pairs, c_list, mScales, covalent_map, kappa, pmax)

    if lpme:
        ene_recip = recip_fn6(positions, box, c_list[:, 0, jnp.newaxis])
        if pmax >= 8:
            ene_recip += recip_fn8(positions, box, c_list[:, 1, jnp.newaxis])
        if pmax >= 10:
            ene_recip += recip_fn10(positions, box, c_list[:, 2, jnp.newaxis])
        ene_self = disp_pme_self(c_list, kappa, pmax)
        return ene_real + ene_recip + ene_self

    else:
        return ene_real


@jit_condition(static_argnums=(2))
def disp_pme_self(c_list, kappa, pmax):
    E_6 = -kappa**6/12 * jnp.sum(c_list[:, 0]**2)
    if pmax >= 8:
        E_8 = -kappa**8/48 * jnp.sum(c_list[:, 1]**2)
    if pmax >= 10:
        E_10 = -kappa**10/240 * jnp.sum(c_list[:, 2]**2)
    E = E_6
    if pmax >= 8:
        E += E_8
    if pmax >= 10:
        E += E_10
    return E




box = jnp.eye(3) * 12.0  # scaffolding: 8 atoms, C6/C8/C10 coefficients, pmax=10
positions = jax.random.uniform(jax.random.PRNGKey(0), (8, 3), maxval=12.0)
pairs = jnp.array([[i, j] for i in range(8) for j in range(i + 1, 8)])
c_list = jnp.ones((8, 3)) * jnp.array([1.0, 0.1, 0.01])
mScales = jnp.array([0.0, 0.0, 1.0, 1.0, 1.0])
covalent_map = jnp.zeros((8, 8), dtype=int)
disp_force = ADMPDispPmeForce(box, covalent_map, 4.0, 5e-4, 10)
calls = 0
try:  # scaffolding
    for _ in range(3):
        E, F = disp_force.get_forces(positions, box, pairs, c_list, mScales)
        calls += 1
    _report({"jit(energy_disp_pme)", "jit(disp_pme_self)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
