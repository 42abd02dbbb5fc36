# source: https://github.com/deepmodeling/DMFF/commit/2c434d7dec02869a58e5887f30e90effdb9589d7
# expect: trace-time-error at line 152
# runtime: ERROR TracerArrayConversionError
# why: build_covalent_map returns a NumPy array, and inside the jitted loss pair_int indexes it with the traced (regularized) pairs, so NumPy tries to convert the tracers and raises TracerArrayConversionError.

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


from collections import namedtuple
from functools import partial

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


# dmff/admp/spatial.py
def v_pbc_shift(drvecs, box, box_inv):  # scaffolding: the vectorised pbc_shift
    unshifted_dsvecs = drvecs.dot(box_inv)
    dsvecs = unshifted_dsvecs - jnp.floor(unshifted_dsvecs + 0.5)
    return dsvecs.dot(box)


# dmff/admp/pairwise.py
@partial(vmap, in_axes=(None, 0), out_axes=(0))
@jit_condition(static_argnums=())
def distribute_scalar(params, index):
    return params[index]


@partial(vmap, in_axes=(None, 0), out_axes=(0))
@jit_condition(static_argnums=())
def distribute_v3(pos, index):
    return pos[index]



def generate_pairwise_interaction(pair_int_kernel, covalent_map, static_args):

    def pair_int(positions, box, pairs, mScales, *atomic_params):
        pairs = regularize_pairs(pairs)

        ri = distribute_v3(positions, pairs[:, 0])
        rj = distribute_v3(positions, pairs[:, 1])
        # ri = positions[pairs[:, 0]]
        # rj = positions[pairs[:, 1]]
        nbonds = covalent_map[pairs[:, 0], pairs[:, 1]]
        mscales = distribute_scalar(mScales, nbonds-1)

        buffer_scales = pair_buffer_scales(pairs)
        mscales = mscales * buffer_scales
        # mscales = mScales[nbonds-1]
        box_inv = jnp.linalg.inv(box)
        dr = ri - rj
        dr = v_pbc_shift(dr, box, box_inv)
        dr = jnp.linalg.norm(dr, axis=1)

        pair_params = []
        for i, param in enumerate(atomic_params):
            pair_params.append(distribute_scalar(param, pairs[:, 0]))
            pair_params.append(distribute_scalar(param, pairs[:, 1]))
            # pair_params.append(param[pairs[:, 0]])
            # pair_params.append(param[pairs[:, 1]])

        energy = jnp.sum(pair_int_kernel(dr, mscales, *pair_params) * buffer_scales)
        return energy

    return pair_int


@vmap
@jit_condition(static_argnums=())
def slater_sr_kernel(dr, m, ai, aj, bi, bj):
    b = jnp.sqrt(bi * bj)
    a = ai * aj
    br = b * dr
    br2 = br * br
    P = 1/3 * br2 + br + 1
    return a * P * jnp.exp(-br) * m


# dmff/api.py
def build_covalent_map(data, max_neighbor):
    n_atoms = len(data.atoms)
    covalent_map = np.zeros((n_atoms, n_atoms), dtype=int)
    for bond in data.bonds:
        covalent_map[bond.atom1, bond.atom2] = 1
        covalent_map[bond.atom2, bond.atom1] = 1
    for n_curr in range(1, max_neighbor):
        for i in range(n_atoms):
            # current neighbors
            j_list = np.where(
                np.logical_and(covalent_map[i] <= n_curr,
                               covalent_map[i] > 0))[0]
            for j in j_list:
                k_list = np.where(covalent_map[j] == 1)[0]
                for k in k_list:
                    if k != i and k not in j_list:
                        covalent_map[i, k] = n_curr + 1
                        covalent_map[k, i] = n_curr + 1
    return covalent_map


Atom = namedtuple("Atom", "name")  # scaffolding: an openmm-like topology of two 3-atom molecules
Bond = namedtuple("Bond", "atom1 atom2")
Data = namedtuple("Data", "atoms bonds")
data = Data([Atom(str(i)) for i in range(6)], [Bond(0, 1), Bond(1, 2), Bond(3, 4), Bond(4, 5)])
covalent_map = build_covalent_map(data, 6)
pair_int = generate_pairwise_interaction(slater_sr_kernel, covalent_map, static_args={})

pairs = np.array([[i, j] for i in range(6) for j in range(i + 1, 6)])  # scaffolding
box = jnp.eye(3) * 30.0
mScales = jnp.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
scan_pos = [jnp.array(np.vstack([np.eye(3), np.eye(3) + [d, 0, 0]])) for d in (2.5, 3.0, 3.5, 4.0)]
E_ref = jnp.array([0.8, 0.3, 0.1, 0.03])


@jit
def MSELoss(params):  # scaffolding: fit.py's jitted loss, cut to one short-range term
    err = 0.0
    for ipt in range(len(scan_pos)):
        E = pair_int(scan_pos[ipt], box, pairs, mScales, params["A"], params["B"])
        err += (E - E_ref[ipt]) ** 2
    return err / len(scan_pos)


params = {"A": jnp.ones(6), "B": jnp.ones(6) * 2.0}
calls = 0
try:  # scaffolding
    for _ in range(3):
        loss = MSELoss(params)
        calls += 1
    _report({"jit(MSELoss)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
