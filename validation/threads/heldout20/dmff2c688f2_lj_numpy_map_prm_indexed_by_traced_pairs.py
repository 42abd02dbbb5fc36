# source: https://github.com/deepmodeling/DMFF/commit/2c688f2da5eac219180a82c41796a7ca4bddb5b1
# expect: trace-time-error at line 137
# runtime: ERROR TracerArrayConversionError
# why: LennardJonesForce keeps map_prm as a NumPy array, and under jit(ljE) it is indexed with the traced pairs, so NumPy tries to convert the tracers and raises TracerArrayConversionError (the eager call works).

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


import jax.numpy as jnp
import numpy as np
from jax import jit, vmap

DO_JIT = True  # scaffolding: dmff.settings


# dmff/utils.py
def jit_condition(*args, **kwargs):
    def jit_deco(func):
        if DO_JIT:
            return jit(func, *args, **kwargs)
        else:
            return func

    return jit_deco


@jit_condition()
@vmap
def regularize_pairs(p):
    dp = p[1] - p[0]
    dp = jnp.piecewise(dp, (dp<=0, dp>0), (lambda x: jnp.array(1), lambda x: jnp.array(0)))
    dp_vec = jnp.array([dp, 2*dp])
    p = p - dp_vec
    return p


@jit_condition()
@vmap
def pair_buffer_scales(p):
    return jnp.piecewise(
            p[0] - p[1],
            (p[0] - p[1] < 0, p[0] - p[1] >= 0),
            (lambda x: jnp.array(1), lambda x: jnp.array(0)))


def v_pbc_shift(drvecs, box, box_inv):  # scaffolding: dmff.admp.spatial
    unshifted_dsvecs = drvecs.dot(box_inv)
    dsvecs = unshifted_dsvecs - jnp.floor(unshifted_dsvecs + 0.5)
    return dsvecs.dot(box)


# dmff/classical/inter.py
class LennardJonesForce:
    def __init__(
        self,
        r_switch,
        r_cut,
        map_prm,
        map_nbfix,
        colvmap,
        isSwitch=False,
        isPBC=True,
        isNoCut=False,
    ) -> None:
        self.isSwitch = isSwitch
        self.r_switch = r_switch
        self.r_cut = r_cut

        self.map_prm = map_prm
        self.map_nbfix = map_nbfix
        self.ifPBC = isPBC
        self.ifNoCut = isNoCut
        self.colvmap = colvmap

    def generate_get_energy(self):
        def get_LJ_energy(dr_vec, sig, eps, box):
            if self.ifPBC:
                dr_vec = v_pbc_shift(dr_vec, box, jnp.linalg.inv(box))
            dr_norm = jnp.linalg.norm(dr_vec, axis=1)
            if not self.ifNoCut:
                sig = sig[dr_norm <= self.r_cut]
                eps = eps[dr_norm <= self.r_cut]
                dr_norm = dr_norm[dr_norm <= self.r_cut]

            dr_inv = 1.0 / dr_norm
            sig_dr = sig * dr_inv
            sig_dr6 = jnp.power(sig_dr, 6)
            sig_dr12 = jnp.power(sig_dr6, 2)
            E = 4.0 * eps * (sig_dr12 - sig_dr6)

            if self.isSwitch:

                x = (dr_norm - self.r_switch) / (self.r_cut - self.r_switch)
                S = 1 - 6. * x ** 5 + 15. * x ** 4 - 10. * x ** 3
                jnp.where(dr_norm > self.r_switch, E, E * S)

            return E

        def get_energy(positions, box, pairs, epsilon, sigma, epsfix, sigfix, mscales):

            eps_m1 = jnp.repeat(epsilon.reshape((-1, 1)), epsilon.shape[0], axis=1)
            eps_m2 = eps_m1.T
            eps_mat = jnp.sqrt(eps_m1 * eps_m2)
            sig_m1 = jnp.repeat(sigma.reshape((-1, 1)), sigma.shape[0], axis=1)
            sig_m2 = sig_m1.T
            sig_mat = (sig_m1 + sig_m2) * 0.5

            eps_mat = eps_mat.at[self.map_nbfix[:, 0], self.map_nbfix[:, 1]].set(epsfix)
            eps_mat = eps_mat.at[self.map_nbfix[:, 1], self.map_nbfix[:, 0]].set(epsfix)
            sig_mat = sig_mat.at[self.map_nbfix[:, 0], self.map_nbfix[:, 1]].set(sigfix)
            sig_mat = sig_mat.at[self.map_nbfix[:, 1], self.map_nbfix[:, 0]].set(sigfix)

            colv_pair = self.colvmap[pairs[:,0],pairs[:,1]]
            mscale_pair = mscales[colv_pair-1] # in mscale vector, the 0th item is 1-2 scale, the 1st item is 1-3 scale, etc...


            dr_vec = positions[pairs[:, 0]] - positions[pairs[:, 1]]
            prm_pair0 = self.map_prm[pairs[:, 0]]
            prm_pair1 = self.map_prm[pairs[:, 1]]
            eps = eps_mat[prm_pair0, prm_pair1]
            sig = sig_mat[prm_pair0, prm_pair1]

            eps_scale = eps * mscale_pair

            E_inter = get_LJ_energy(dr_vec, sig, eps_scale, box)

            return jnp.sum(E_inter)

        return get_energy



# scaffolding: what Hamiltonian.createPotential builds for lj2.pdb with NoCutoff (two atoms of one LJ type)
map_lj = np.array([0, 0])
map_nbfix = np.zeros((0, 2), dtype=int)
colv_map = jnp.array([[0, 0], [0, 0]])
ljforce = LennardJonesForce(0.0, 1.0, map_lj, map_nbfix, colv_map, isSwitch=False, isPBC=False, isNoCut=True)
ljenergy = ljforce.generate_get_energy()
mscales_lj = jnp.array([0.0, 0.0, 0.5, 1.0, 1.0, 1.0])


def potential_fn(positions, box, pairs, params):  # scaffolding: api.py's wrapper
    return ljenergy(positions, box, pairs, params["epsilon"], params["sigma"], params["epsfix"], params["sigfix"], mscales_lj)


ljE = potential_fn
pos = np.array([[0.0, 0.0, 0.0], [0.35, 0.0, 0.0]])
box = np.array([[10.0, 0.0, 0.0], [0.0, 10.0, 0.0], [0.0, 0.0, 10.0]])
pairs = np.array([[0, 1]])
params = {"epsilon": jnp.array([0.5]), "sigma": jnp.array([0.3]), "epsfix": jnp.zeros(0), "sigfix": jnp.zeros(0)}
energy = ljE(pos, box, pairs, params)  # the test's eager call
calls = 0
try:  # scaffolding
    for _ in range(2):
        energy = jit(ljE)(pos, box, pairs, params)  # as in tests/test_classical: energy = jit(ljE)(...)
        calls += 1
    _report({"jit(potential_fn)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
