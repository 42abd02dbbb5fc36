# source: https://github.com/graphcore-research/pyscf-ipu/commit/e51a92705c18e14d9a262427dbe037dbf011543d
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the commit defines the namedtuple class once at module level (dcargs_t), so equal static args hit the cache and _do_compute compiles once for 3 conformers.

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


import argparse  # scaffolding
from collections import namedtuple

import jax
import jax.numpy as jnp
import numpy as np


# pyscf_ipu/dft.py (after the commit): the explicit list of arguments used in do_compute, _do_compute's signature and static arguments as written; its body
# (DIIS + Kohn-Sham iterations) replaced by a small fixed-point loop that reads the static args  # scaffolding
# Explicit list of arguments used in do_compute and callees
do_compute_args_names = (
  'its', 'backend', 'ipumult', 'seperate','threads_int',
  'intv', 'skiperi', 'randeri', 'float16', 'float32', 'nan', 'forloop',
  'sk', 'xc', 'threads', 'multv', 'debug',
  'skipdiis', 'skipeigh', 'geneigh', 'density_mixing'
)
dcargs_t = namedtuple('dcargs', do_compute_args_names)

_do_compute_static_argnums = (10,11,16)
def _do_compute(density_matrix, kinetic, nuclear, overlap, ao,
                electron_repulsion, weights, coords,
                nuclear_energy, disable_cache,
                mf_diis_space, N, hyb, mask, _input_floats,
                _input_ints,
                args,
                L_inv=None):
        fixed_hamiltonian = kinetic + nuclear  # scaffolding
        def dft_iter(i, dm):  # scaffolding
            H = fixed_hamiltonian + (0.5 if args.density_mixing else 0.1) * dm
            _, C = jnp.linalg.eigh(H)
            return C[:, :N // 2] @ C[:, :N // 2].T
        dm = jax.lax.fori_loop(0, args.its, dft_iter, density_matrix)
        energy = jnp.sum(dm * fixed_hamiltonian) + nuclear_energy
        return energy, dm


def density_functional_theory(conformers, args, mf_diis_space=9):  # scaffolding: the conformer loop of the real function, cut down
        device_1 = jax.devices(args.backend)[0]
        do_compute_jit = jax.jit(_do_compute, device=device_1, static_argnums=_do_compute_static_argnums)

        vals = []
        for conformer_num, (kinetic, nuclear) in enumerate(conformers):
                N = kinetic.shape[0]
                density_matrix = np.eye(N, dtype=np.float32) / N  # scaffolding: minao guess
                overlap = ao = electron_repulsion = weights = coords = mask = _input_floats = _input_ints = L_inv = None  # scaffolding
                nuclear_energy, hyb = 1.0, 0.0  # scaffolding
                dcargs = dcargs_t(*(args.__dict__[a] for a in do_compute_args_names))

                if not args.forloop:
                    vals.append( do_compute_jit( density_matrix, kinetic, nuclear, overlap, ao, electron_repulsion, weights, coords, nuclear_energy, 0, mf_diis_space, N, hyb , mask, _input_floats, _input_ints, dcargs, L_inv)  )
        return vals


# scaffolding: command-line defaults and three conformers of the same molecule (same matrix sizes)
args = argparse.Namespace(its=5, backend="cpu", ipumult=False, seperate=False, threads_int=1, intv=1, skiperi=False,
                          randeri=False, float16=False, float32=True, nan=False, forloop=False, sk=(-2,), xc="b3lyp",
                          threads=1, multv=2, debug=False, skipdiis=False, skipeigh=False, geneigh=False, density_mixing=False)  # process_args turns -sk into a tuple
rng = np.random.default_rng(0)
conformers = []
for _ in range(3):
    a = rng.normal(size=(6, 6)).astype(np.float32)
    conformers.append((a @ a.T, -np.eye(6, dtype=np.float32)))
vals = density_functional_theory(conformers, args)
_report({"jit(_do_compute)"}, len(vals))
