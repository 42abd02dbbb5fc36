# source: https://github.com/fishjojo/pyscfad/pull/152
# expect: jit-in-loop-or-body at line 73
# runtime: COMPILES 3 CALLS 3
# why: the AO-grid JVP rule _eval_gto_jvp_r defines a fresh @jit _contract closure on every invocation, so each repeated gradient with the same grid block compiles the contraction again (3 compiles for 3 calls), as issue #99 reported for dft.RKS.
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
import jax  # scaffolding
from jax import jit
import jax.numpy as np  # scaffolding: pyscfad.numpy is a jax.numpy wrapper

_MAX_DERIV_ORDER = 4

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


class _Mol:  # scaffolding: stands in for pyscfad.gto.Mole
    nao = 8  # scaffolding


def _eval_gto(mol, eval_name, grid_coords, comp, shls_slice, non0tab, ao_loc, cutoff, out):  # scaffolding: the libcint AO evaluator
    return np.ones((4, 100, mol.nao)) * grid_coords[None, :, :1]  # scaffolding: (comp, ngrids, nao) for GTOval_deriv1


mol = _Mol()  # scaffolding
grid_coords = np.linspace(0.0, 1.0, 300).reshape(100, 3)  # scaffolding: a fixed DFT grid block
for k in range(3):  # scaffolding: the JVP rule runs once per repeated jax.grad of dft.RKS
    grid_coords_t = np.full((100, 3), 0.1 * (k + 1))  # scaffolding
    _eval_gto_jvp_r(mol, "GTOval", grid_coords, grid_coords_t, None, None, None, None, mol.nao)  # scaffolding

_report({"jit(_contract)"}, 3)  # scaffolding
