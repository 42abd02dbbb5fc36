# source: https://github.com/fishjojo/pyscfad/commit/70c808c29e5e5ae1d3d0f0ccbf98c564dae0fb54
# expect: jit-in-loop-or-body at line 77
# runtime: COMPILES 3 CALLS 3
# why: _eval_gto_jvp_r defines a @jit-decorated _contract closure on every call, so each of the 3 JVP evaluations creates a new jitted function that compiles again.
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

import numpy
import jax
from jax import jit
from jax import numpy as np  # scaffolding: pyscfad.numpy wraps jax.numpy

_MAX_DERIV_ORDER = 4  # scaffolding: pyscfad constant

_XYZ_ID = [
    numpy.array(
        [[1,],
         [2,],
         [3,],]
    ),
    numpy.array(
        [[4, 5, 6],
         [5, 7, 8],
         [6, 8, 9],]
    ),
    numpy.array(
        [[10, 11, 12, 13, 14, 15],
         [11, 13, 14, 16, 17, 18],
         [12, 14, 15, 17, 18, 19],]
    ),
    numpy.array(
        [[20, 21, 22, 23, 24, 25, 26, 27, 28, 29],
         [21, 23, 24, 26, 27, 28, 30, 31, 32, 33],
         [22, 24, 25, 27, 28, 29, 31, 32, 33, 34],]
    ),
]


def _eval_gto(mol, eval_name, grid_coords, comp, shls_slice, non0tab, ao_loc, cutoff, out):  # scaffolding: stands in for the libcint AO evaluation
    ngrids, nao = grid_coords.shape[0], mol["nao"]
    ncomp = {"GTOval_sph_deriv1": 4, "GTOval_sph_deriv2": 10}[eval_name]
    return np.cos(np.arange(ncomp)[:, None, None] + grid_coords[None, :, :1] * np.arange(1, nao + 1)[None, None, :])

def _eval_gto_jvp_r(mol, eval_name, grid_coords, grid_coords_t,
                    comp, shls_slice, non0tab, ao_loc, nao):
    if 'deriv' not in eval_name:
        order = 0
        new_eval = eval_name + '_deriv1'
    else:
        tmp = eval_name.split('deriv', 1)
        order = int(tmp[1])
        new_eval = tmp[0] + 'deriv' + str(order + 1)
    if order + 1 > _MAX_DERIV_ORDER:
        raise NotImplementedError

    ao1 = _eval_gto(mol, new_eval, grid_coords, None, shls_slice, non0tab,
                    ao_loc, None, None)

    @jit
    def _contract(ao1, grid_coords_t):
        tangent_out = []
        for iorder in range(order+1):
            tmp = 0
            for i in range(3):
                tmp += np.einsum('ygi,g->ygi',
                                 ao1[_XYZ_ID[iorder][i]],
                                 grid_coords_t[:,i])
            tangent_out.append(tmp)
        tangent_out = np.concatenate(tangent_out)
        return tangent_out

    tangent_out = _contract(ao1, grid_coords_t)
    if order == 0:
        tangent_out = tangent_out[0]
    return tangent_out

mol = {"nao": 6}  # scaffolding
grid_coords = jax.random.normal(jax.random.PRNGKey(0), (200, 3))  # scaffolding: a fixed DFT grid block
for step in range(3):  # scaffolding: the JVP rule runs once per gradient call (e.g. 3 geometry steps)
    grid_coords_t = jax.random.normal(jax.random.PRNGKey(step + 1), (200, 3))
    t = _eval_gto_jvp_r(mol, "GTOval_sph", grid_coords, grid_coords_t, None, None, None, None, 6)
_report({"jit(_contract)"}, 3)  # scaffolding
